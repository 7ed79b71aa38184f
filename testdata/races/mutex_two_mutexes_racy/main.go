// As mutex_handed_to_goroutine, but the second goroutine locks another
// mutex, which main unlocks: its Lock does not wait for the first
// goroutine's Unlock, so the writes race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu1, mu2 sync.Mutex
	done := make(chan bool, 2)
	x := 0
	_ = x
	mu1.Lock()
	mu2.Lock()
	go func() {
		x = 1 // want "race"
		mu1.Unlock()
		done <- true
	}()
	go func() {
		mu2.Lock()
		x = 2 // want "race"
		mu2.Unlock()
		done <- true
	}()
	mu2.Unlock()
	<-done
	<-done
	fmt.Println("done")
}
