// A read that forgets the RLock: the writer updates the limit under the write
// lock, but the reader's accessor takes no lock at all.
package main

import (
	"fmt"
	"sync"
)

type settings struct {
	mu    sync.RWMutex
	limit int
}

func (s *settings) setLimit(n int) {
	s.mu.Lock()
	s.limit = n // want "race"
	s.mu.Unlock()
}

func (s *settings) getLimit() int {
	return s.limit // want "race"
}

func main() {
	s := &settings{limit: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.setLimit(5)
	}()
	go func() {
		defer wg.Done()
		fmt.Println(s.getLimit())
	}()
	wg.Wait()
}
