// The fixed twin of study_read_without_rlock_racy: the accessor holds the read
// lock, which excludes the writer's write lock.
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
	s.limit = n
	s.mu.Unlock()
}

func (s *settings) getLimit() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.limit
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
