// The fixed twin of study_write_under_rlock_racy: the lookup holds the read
// lock; on a miss it drops it, takes the write lock and looks again before
// inserting.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type memo struct {
	mu    sync.RWMutex
	cache map[string]string
}

func (m *memo) get(k string) string {
	m.mu.RLock()
	v, ok := m.cache[k]
	m.mu.RUnlock()
	if ok {
		return v
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.cache[k]; ok {
		return v
	}
	v = strings.ToUpper(k)
	m.cache[k] = v
	return v
}

func main() {
	m := &memo{cache: map[string]string{}}
	var wg sync.WaitGroup
	for _, k := range []string{"x", "y"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Println(m.get(k))
		}()
	}
	wg.Wait()
}
