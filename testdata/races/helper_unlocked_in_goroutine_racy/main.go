// A helper (evict) that one goroutine calls with the cache's mutex held,
// and another goroutine calls without it on the same cache.
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	mu    sync.Mutex
	items map[string]int
}

func newCache() *cache { return &cache{items: map[string]int{}} }

func (c *cache) evict(k string) {
	delete(c.items, k) // want "race"
}

func (c *cache) Evict(k string) {
	c.mu.Lock()
	c.evict(k)
	c.mu.Unlock()
}

func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v // want "race"
	c.mu.Unlock()
}

func main() {
	shared := newCache()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); shared.Evict("a") }()
	go func() { defer wg.Done(); shared.evict("b") }()
	shared.Set("a", 1)
	wg.Wait()
	fmt.Println(len(shared.items))
}
