// The fixed twin of study_mutex_value_receiver_racy: a pointer receiver, so
// every call locks the one mutex of the shared stats.
package main

import (
	"fmt"
	"sync"
)

type stats struct {
	mu   sync.Mutex
	hits map[string]int
}

func (s *stats) add(key string) {
	s.mu.Lock()
	s.hits[key]++
	s.mu.Unlock()
}

func main() {
	s := &stats{hits: map[string]int{}}
	var wg sync.WaitGroup
	for _, k := range []string{"x", "y"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.add(k)
		}()
	}
	wg.Wait()
	fmt.Println(len(s.hits))
}
