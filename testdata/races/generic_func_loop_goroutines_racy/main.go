// Goroutines started in a loop inside a generic function: each writes the
// global counter, unordered. Found by internal/difftest (seed 1); the
// twin without the type parameter is reported.
package main

import "sync"

var counter int

func spawn[P any](v P) {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counter = i // want "race"
		}()
	}
	wg.Wait()
}

func main() {
	spawn("x")
}
