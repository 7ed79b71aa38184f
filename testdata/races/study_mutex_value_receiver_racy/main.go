// A mutex copied by value: add has a value receiver, so each call locks its
// own copy of mu and the lock excludes nothing, while hits, a map, is shared
// by every copy.
package main

import (
	"fmt"
	"sync"
)

type stats struct {
	mu   sync.Mutex
	hits map[string]int
}

func (s stats) add(key string) {
	s.mu.Lock()
	s.hits[key]++ // want "race"
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
