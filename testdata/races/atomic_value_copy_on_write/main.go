// A copy-on-write map: each writer copies the published map, writes the
// copy, and publishes it with an atomic store; readers get the map from an
// atomic load. A map is written only before its store, and read only after
// a load that returned it, which the store synchronizes with.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type cowMap struct {
	mu    sync.Mutex
	clean atomic.Value
}

func (m *cowMap) load(k int) int {
	clean, _ := m.clean.Load().(map[int]int)
	return clean[k]
}

func (m *cowMap) store(k, v int) {
	m.mu.Lock()
	dirty := m.copy()
	dirty[k] = v
	m.clean.Store(dirty)
	m.mu.Unlock()
}

func (m *cowMap) copy() map[int]int {
	clean, _ := m.clean.Load().(map[int]int)
	dirty := make(map[int]int, len(clean)+1)
	for k, v := range clean {
		dirty[k] = v
	}
	return dirty
}

func main() {
	var m cowMap
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			m.store(i, i)
		}()
		go func() {
			defer wg.Done()
			fmt.Println(m.load(i))
		}()
	}
	wg.Wait()
}
