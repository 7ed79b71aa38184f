// finish defers wg.Wait only on one of its paths: on the early return no
// Wait runs, so main's write after finish races with the goroutine's.
package main

import "sync"

func finish(early bool, wg *sync.WaitGroup) {
	if early {
		return
	}
	defer wg.Wait()
}

func main() {
	x := 0
	_ = x
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		x = 1 // want "race"
		wg.Done()
	}()
	finish(true, &wg)
	x = 2 // want "race"
	wg.Wait()
}
