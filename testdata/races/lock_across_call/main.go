// A lock held across a call: add holds c.mu while calling addLocked, which does
// the access. Every caller of addLocked holds the lock. No race.
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
func (s *stats) addLocked(d int) { s.total += d }

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
	s.add(2)
	wg.Wait()
	fmt.Println(s.total)
}
