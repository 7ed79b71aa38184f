// A lock held on some paths only: the early return for an empty key counts
// the miss before taking the lock, so that increment races with the locked
// ones.
package main

import (
	"fmt"
	"sync"
)

type registry struct {
	mu     sync.Mutex
	items  map[string]int
	misses int
}

func (r *registry) lookup(key string) int {
	if key == "" {
		r.misses++ // want "race" (not with itself)
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.items[key]
	if !ok {
		r.misses++ // want "race"
	}
	return v
}

func main() {
	r := &registry{items: map[string]int{"a": 1}}
	var wg sync.WaitGroup
	for _, k := range []string{"", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.lookup(k)
		}()
	}
	wg.Wait()
	fmt.Println(r.misses)
}
