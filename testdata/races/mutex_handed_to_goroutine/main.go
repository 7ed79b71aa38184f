// main locks mu before starting two goroutines: the first writes x and
// unlocks mu, the second locks mu before its write. Its Lock comes after
// main's, so it returns only after an Unlock of mu, and the only one that
// can come first is the first goroutine's, after its write. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	done := make(chan bool, 2)
	x := 0
	_ = x
	mu.Lock()
	go func() {
		x = 1
		mu.Unlock()
		done <- true
	}()
	go func() {
		mu.Lock()
		x = 2
		mu.Unlock()
		done <- true
	}()
	<-done
	<-done
	fmt.Println("done")
}
