// The lock is released on one branch before the access: after the merge the lock
// is not must-held, and both goroutines take that branch, so the writes race.
package main

import (
	"fmt"
	"sync"
)

var (
	mu    sync.Mutex
	count int
)

func record(fast bool, wg *sync.WaitGroup) {
	defer wg.Done()
	mu.Lock()
	if fast {
		mu.Unlock()
	}
	count++ // want "race"
	if !fast {
		mu.Unlock()
	}
}

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go record(true, &wg)
	go record(true, &wg)
	wg.Wait()
	fmt.Println(count)
}
