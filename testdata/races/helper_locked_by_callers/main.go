// A helper called only with its receiver's mutex held, by two callers that
// each lock it through their own value (c.mu in add, c.mu in replace): the
// helper's writes to the receiver's field and map are protected. Two caches
// keep the mutex from being a single object. No race.
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	mu    sync.Mutex
	n     int
	items map[string]int
}

func newCache() *cache { return &cache{items: map[string]int{}} }

func (c *cache) set(k string, v int) {
	c.n++
	c.items[k] = v
}

func (c *cache) add(k string, v int) {
	c.mu.Lock()
	if _, ok := c.items[k]; !ok {
		c.set(k, v)
	}
	c.mu.Unlock()
}

func (c *cache) replace(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(k, v)
}

func main() {
	var wg sync.WaitGroup
	for _, c := range []*cache{newCache(), newCache()} {
		wg.Add(2)
		go func() { defer wg.Done(); c.add("a", 1) }()
		go func() { defer wg.Done(); c.replace("a", 2) }()
	}
	wg.Wait()
	fmt.Println("done")
}
