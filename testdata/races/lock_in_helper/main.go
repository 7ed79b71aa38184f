// A helper takes the lock and returns holding it; the caller writes and
// unlocks. Both writes are under mu: no race.
package main

import (
	"fmt"
	"sync"
)

var (
	mu sync.Mutex
	n  int
)

func lock() int {
	mu.Lock()
	return 1
}

func main() {
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	n = lock()
	mu.Unlock()
	<-done
	fmt.Println(n)
}
