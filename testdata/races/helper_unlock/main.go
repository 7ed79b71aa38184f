// A helper that unlocks: put locks s.mu, writes s.last, then calls release, which
// updates s.ops and unlocks. Every access happens while s.mu is held. No race.
package main

import (
	"fmt"
	"sync"
)

type store struct {
	mu   sync.Mutex
	last int
	ops  int
}

// release records the operation and unlocks s.mu; the caller must hold s.mu.
func (s *store) release() {
	s.ops++
	s.mu.Unlock()
}

func (s *store) put(v int) {
	s.mu.Lock()
	s.last = v
	s.release()
}

func main() {
	s := &store{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			s.put(i)
		}()
	}
	wg.Wait()
	fmt.Println(s.ops)
}
