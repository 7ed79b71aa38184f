// A helper (evict) that one goroutine calls only with the cache's mutex
// held, through Evict, while another goroutine calls it without the lock
// on a cache of its own. The locks held at the helper's entry differ by
// goroutine: in the first they protect the shared cache. No race.
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

func (c *cache) evict(k string) { delete(c.items, k) }

func (c *cache) Evict(k string) {
	c.mu.Lock()
	c.evict(k)
	c.mu.Unlock()
}

func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

func scratch() {
	d := &cache{items: map[string]int{"x": 1}}
	d.evict("x")
}

func main() {
	shared := newCache()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); shared.Evict("a") }()
	go func() { defer wg.Done(); scratch() }()
	shared.Set("a", 1)
	wg.Wait()
	fmt.Println(len(shared.items))
}
