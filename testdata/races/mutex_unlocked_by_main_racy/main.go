// As mutex_handed_to_goroutine, but main unlocks mu itself and then writes
// x: the goroutine's Lock may return after main's Unlock, before main's
// write, so the two writes race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	done := make(chan bool)
	x := 0
	_ = x
	mu.Lock()
	go func() {
		mu.Lock()
		x = 1 // want "race"
		mu.Unlock()
		done <- true
	}()
	mu.Unlock()
	x = 2 // want "race"
	<-done
	fmt.Println("done")
}
