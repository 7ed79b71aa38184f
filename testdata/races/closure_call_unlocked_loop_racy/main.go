// Goroutines started in a loop call set through a closure, with no lock;
// another goroutine calls set with mu held. The loop's goroutines race
// with each other and with it. Shrunk from internal/difftest's seed 1192;
// with set called directly in the loop's goroutines, the race is reported.
package main

import "sync"

var x int
var mu sync.Mutex

func set(v int) {
	x = v // want "race"
}

func setLocked(v int, done chan<- bool) {
	mu.Lock()
	defer mu.Unlock()
	set(v)
	done <- true
}

func main() {
	done := make(chan bool)
	go setLocked(8, done)
	for i := 0; i < 3; i++ {
		go func() {
			f := func() { set(i) }
			f()
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}
