// Package order has races that a run of its test almost never shows (as
// in package rare, the goroutine nearly always takes the mutex first),
// and that a directed run shows only when the goroutine held at its write
// goes first and the caller's write follows before the goroutine writes
// again. The race detector keeps each goroutine's last access to x and,
// once it reports a race on x, forgets them all: if the caller's write
// went first, it would be reported with the goroutine's earlier read; if
// the goroutine's write under own came before it, with that write. Within
// an epoch (between two synchronizations of the goroutine) it keeps the
// goroutine's first access: the increment is reported only if the hook
// starts an epoch before it.
package order

import (
	"sync"
	"time"
)

var (
	mu    sync.Mutex
	own   sync.Mutex // the goroutine's only
	calls int
	x     int
)

// Start writes x in a goroutine and in the caller, 200ms apart.
func Start() {
	done := make(chan bool)
	go func() {
		if x == 0 { // want "race"
			x = 1 // want "race"
			x++   // want "race"
			own.Lock()
			x = 3 // want "race"
			own.Unlock()
		}
		mu.Lock()
		calls++
		mu.Unlock()
		done <- true
	}()
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	calls++
	mu.Unlock()
	x = 2 // want "race"
	<-done
}
