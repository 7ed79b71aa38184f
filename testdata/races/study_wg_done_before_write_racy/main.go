// WaitGroup misuse: the worker calls Done before it stores its result, so
// main's Wait orders nothing about the store.
package main

import (
	"fmt"
	"sync"
)

type job struct {
	in, out int
}

func main() {
	var wg sync.WaitGroup
	var exited sync.WaitGroup
	j := &job{in: 7}
	wg.Add(1)
	exited.Add(1)
	go func() {
		defer exited.Done()
		v := j.in * 2
		wg.Done()
		j.out = v // want "race"
	}()
	wg.Wait()
	fmt.Println(j.out) // want "race"
	exited.Wait()
}
