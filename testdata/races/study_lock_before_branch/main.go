// The fixed twin of study_lock_early_return_racy: the lock is taken before the
// branch, so every path that touches misses holds it.
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
	r.mu.Lock()
	defer r.mu.Unlock()
	if key == "" {
		r.misses++
		return 0
	}
	v, ok := r.items[key]
	if !ok {
		r.misses++
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
