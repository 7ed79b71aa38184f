// Package address has a race on one counter among several that one line
// bumps, which a run of its test almost never shows: the goroutine bumps
// the shared counter and its own, then takes a mutex; the caller bumps its
// own counter, sleeps, takes the mutex and bumps the shared one. When the
// goroutine takes the mutex first, as it nearly always does, the unlock
// orders its bump before the caller's. A directed run's hook that holds
// the goroutine at the shared counter must not let it go when the caller
// bumps its own counter, but only when the caller comes to the shared one.
package address

import (
	"sync"
	"time"
)

type counter struct{ n int }

func (c *counter) bump() { c.n++ } // want "race"

var (
	mu     sync.Mutex
	calls  int
	shared counter
)

// Start bumps counters in a goroutine and in the caller.
func Start() {
	done := make(chan bool)
	go func() {
		shared.bump()
		new(counter).bump()
		mu.Lock()
		calls++
		mu.Unlock()
		done <- true
	}()
	time.Sleep(200 * time.Millisecond)
	new(counter).bump()
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	calls++
	mu.Unlock()
	shared.bump()
	<-done
}
