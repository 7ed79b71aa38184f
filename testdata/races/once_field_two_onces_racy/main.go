// Two goroutines store a result of one object, each under a different
// sync.Once field of that object: each Once runs its function once, so the
// two stores both run.
package main

import (
	"fmt"
	"sync"
)

type result struct {
	first, second sync.Once
	val           int
}

func main() {
	var wg sync.WaitGroup
	r := new(result)
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.first.Do(func() {
			r.val = 1 // want "race"
		})
	}()
	go func() {
		defer wg.Done()
		r.second.Do(func() {
			r.val = 2 // want "race"
		})
	}()
	wg.Wait()
	fmt.Println(r.val)
}
