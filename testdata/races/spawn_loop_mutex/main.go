// A spawn in a loop with the shared counter under a mutex: the goroutines from
// the one go statement are ordered by the lock. No race.
package main

import (
	"fmt"
	"sync"
)

var (
	mu      sync.Mutex
	counter int
)

func main() {
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			counter++
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(counter)
}
