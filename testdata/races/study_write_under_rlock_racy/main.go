// A write under RLock: a lazily filled cache inserts the missing entry while
// holding only the read lock, so two readers that miss insert concurrently and
// each insert races with the other reader's lookup.
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
	defer m.mu.RUnlock()
	v, ok := m.cache[k] // want "race"
	if !ok {
		v = strings.ToUpper(k)
		m.cache[k] = v // want "race"
	}
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
