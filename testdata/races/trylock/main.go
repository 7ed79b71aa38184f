// TryLock: the goroutine touches n only on the branch where TryLock succeeded,
// so both accesses hold mu. No race (whichever way TryLock goes).
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if mu.TryLock() {
			n++
			mu.Unlock()
		}
	}()
	mu.Lock()
	n++
	mu.Unlock()
	wg.Wait()
	fmt.Println(n)
}
