// The helper hands the new object on (it starts a goroutine that reads it), so
// the caller's write after the call races with that goroutine's read; the
// helper's own write before its go statement does not.
package main

import (
	"fmt"
	"sync"
)

type job struct {
	name string
	done bool
}

func start(j *job, wg *sync.WaitGroup) {
	j.name = "job"
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println(j.name, j.done) // want "race"
	}()
}

func main() {
	var wg sync.WaitGroup
	j := &job{}
	start(j, &wg)
	j.done = true // want "race"
	wg.Wait()
}
