// A channel of capacity 1 as a lock behind helper functions: lock sends, unlock
// receives, and every goroutine that receives sent first. The kth receive happens
// before the (k+1)th send completes, so the increments of hits are ordered. No race.
package main

import (
	"fmt"
	"sync"
)

var (
	token = make(chan struct{}, 1)
	hits  int
)

func lock()   { token <- struct{}{} }
func unlock() { <-token }

func record() {
	lock()
	hits++
	unlock()
}

func main() {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			record()
		}()
	}
	wg.Wait()
	fmt.Println(hits)
}
