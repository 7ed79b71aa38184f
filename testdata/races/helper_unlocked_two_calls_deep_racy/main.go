// A goroutine calls set with mu held, and then through helper without it;
// main calls set with mu held. set runs without the lock in that goroutine
// (the entry locks of a goroutine are met over all the calls it makes, at
// any depth), so main's write races with the goroutine's second one.
// Shrunk from internal/difftest's seed 660; with set(4) called directly
// in the goroutine, the race is reported.
package main

import "sync"

var x int
var mu sync.Mutex

func set(v int) {
	x = v // want "race"
}

func helper() { set(4) }

func main() {
	locked := make(chan bool)
	done := make(chan bool)
	go func() {
		mu.Lock()
		set(3)
		mu.Unlock()
		locked <- true
		helper()
		done <- true
	}()
	<-locked
	mu.Lock()
	set(1)
	mu.Unlock()
	<-done
}
