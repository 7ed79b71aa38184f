// A callee that expects its caller to hold the lock, called from one caller that
// does and one that doesn't: the lock held at the callee's entry is not must-held.
package main

import (
	"fmt"
	"sync"
)

type stats struct {
	mu    sync.Mutex
	total int
}

// addLocked requires s.mu to be held.
func (s *stats) addLocked(d int) { s.total += d } // want "race"

func (s *stats) add(d int) {
	s.mu.Lock()
	s.addLocked(d)
	s.mu.Unlock()
}

func main() {
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.add(1)
	}()
	s.addLocked(2) // forgot the lock
	wg.Wait()
	fmt.Println(s.total)
}
