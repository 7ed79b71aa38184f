// Package rare has a race that a run of its test almost never shows: the
// goroutine writes late and then takes a mutex, which the caller takes
// only after a sleep, and then writes late. When the goroutine takes the
// mutex first, as it nearly always does, the unlock orders its write
// before the caller's and the race detector sees nothing; when the caller
// takes it first, nothing orders the writes. A directed run that holds
// the goroutine at its write until the caller reaches its own makes the
// rare order happen.
package rare

import (
	"sync"
	"time"
)

var (
	mu    sync.Mutex
	calls int
	late  int
)

// Start writes late in a goroutine and in the caller, 200ms apart.
func Start() {
	done := make(chan bool)
	go func() {
		late = 1 // want "race"
		mu.Lock()
		calls++
		mu.Unlock()
		done <- true
	}()
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	calls++
	mu.Unlock()
	late = 2 // want "race"
	<-done
}
