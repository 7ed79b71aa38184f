// A WaitGroup made in each run of a loop body is one abstract object for
// every run: waiting for the last one says nothing about the goroutine the
// first one counted.
package main

import (
	"sync"
	"time"
)

var x int

func main() {
	var last *sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg := new(sync.WaitGroup)
		wg.Add(1)
		go func(wg *sync.WaitGroup) {
			if i == 0 {
				time.Sleep(10 * time.Millisecond)
				x = 1 // want "race" (not with itself)
			}
			wg.Done()
		}(wg)
		last = wg
	}
	last.Wait()
	_ = x // want "race"
}
