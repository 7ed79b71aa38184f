// Package racefree hands data from a goroutine to its caller through a
// flag read and written under a mutex: the caller writes data only after
// it has seen the flag, which the goroutine sets after its write, so the
// unlock that publishes the flag orders the two writes. Static analysis
// that does not follow the flag's value reports the writes as a race.
package racefree

import "sync"

var (
	mu    sync.Mutex
	ready bool
	data  int
)

// Handoff writes data in a goroutine, then in the caller once the
// goroutine says it is done.
func Handoff() int {
	go func() {
		data = 1
		mu.Lock()
		ready = true
		mu.Unlock()
	}()
	for {
		mu.Lock()
		r := ready
		mu.Unlock()
		if r {
			break
		}
	}
	data = 2
	return data
}
