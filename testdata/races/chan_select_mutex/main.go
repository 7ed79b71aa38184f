// A channel of capacity 1 as a lock, taken and released in selects whose other
// case receives from a channel that nothing sends on or closes: that case is never
// chosen, so each increment runs between the goroutine's send and its receive, and
// the increments are ordered. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	lock := make(chan struct{}, 1)
	never := make(chan bool)
	n := 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case lock <- struct{}{}:
			case <-never:
			}
			n++
			select {
			case <-lock:
			case <-never:
			}
		}()
	}
	wg.Wait()
	fmt.Println(n)
}
