// A counting semaphore of capacity 2 admits two goroutines at once, so their
// increments of n are unordered (the kth receive orders only send k+2). Elements are
// bool: with chan struct{} the race detector over-synchronizes and misses this race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	sem := make(chan bool, 2)
	n := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- true
			n++ // want "race"
			<-sem
		}()
	}
	wg.Wait()
	fmt.Println(n)
}
