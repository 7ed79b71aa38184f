// A write before the spawn, inside a loop: each write is ordered before the
// goroutine started in its own iteration, but not before the goroutines started in
// earlier iterations, which read current concurrently.
package main

import (
	"fmt"
	"sync"
)

var current int

func main() {
	var wg sync.WaitGroup
	for i := range 3 {
		current = i // want "race"
		wg.Add(1)
		go func() {
			defer wg.Done()
			if current < 0 { // want "race"
				panic("negative")
			}
		}()
	}
	wg.Wait()
	fmt.Println(current)
}
