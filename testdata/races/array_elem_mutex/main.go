// Array element: both writes to slots[1] hold the same mutex. No race.
package main

import (
	"fmt"
	"sync"
)

var (
	mu    sync.Mutex
	slots [4]int
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		slots[1] = 1
		mu.Unlock()
	}()
	mu.Lock()
	slots[1] = 2
	mu.Unlock()
	wg.Wait()
	fmt.Println(slots)
}
