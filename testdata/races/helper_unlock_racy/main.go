// A helper that unlocks, called too early: put writes s.last after release has
// already unlocked s.mu, so the writes from two goroutines race (s.ops is safe).
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
	s.release()
	s.last = v // want "race"
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
