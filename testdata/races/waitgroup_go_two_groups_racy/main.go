// Two WaitGroups, each given one function by Go: waiting for wg5 says
// nothing about the function wg4 runs, though one go statement inside
// WaitGroup.Go starts both. Shrunk from internal/difftest's seed 3198.
package main

import "sync"

var x int

func main() {
	var wg4, wg5 sync.WaitGroup
	wg4.Go(func() {
		x = 1 // want "race" (not with itself)
	})
	wg5.Go(func() {})
	wg5.Wait()
	x = 2 // want "race"
	wg4.Wait()
}
