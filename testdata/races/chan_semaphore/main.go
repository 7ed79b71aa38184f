// A buffered channel of capacity 1 as a lock: the kth receive happens before the
// (k+1)th send completes, so at most one goroutine is between send and receive and
// the increments are ordered. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	sem := make(chan bool, 1)
	n := 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- true
			n++
			<-sem
		}()
	}
	wg.Wait()
	fmt.Println(n)
}
