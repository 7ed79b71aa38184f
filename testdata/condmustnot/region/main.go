// Command region increments a global counter inside a Lock..Unlock region
// of a global mutex, and resets it after the region, from two goroutines.
package main

import "sync"

var (
	mu      sync.Mutex
	counter int
)

func inc(wg *sync.WaitGroup) {
	defer wg.Done()
	mu.Lock()
	counter++ // @locked
	mu.Unlock()
	counter = 0 // @unlocked
}

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go inc(&wg)
	go inc(&wg)
	wg.Wait()
}
