// TryLock result ignored: main holds mu for the whole life of the goroutine, so its
// TryLock fails, yet it writes n anyway, unordered with main's write.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	n := 0
	done := make(chan struct{})
	mu.Lock()
	go func() {
		locked := mu.TryLock()
		n = 2 // want "race"
		if locked {
			mu.Unlock()
		}
		close(done)
	}()
	n = 1 // want "race"
	<-done
	mu.Unlock()
	fmt.Println(n)
}
