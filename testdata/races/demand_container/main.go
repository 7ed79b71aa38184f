// Two caches from one constructor: main's shared cache is used by a goroutine
// under its mutex, and another goroutine makes caches of its own and
// updates one map without the lock. At k = 1 one abstract cache holds
// both kinds of map; the demand loop must split the maps and the caches
// that hold them. No race.
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
	var caches []*cache
	for range 2 {
		caches = append(caches, newCache())
	}
	for _, d := range caches {
		d.Set("x", 1)
		d.evict("x")
	}
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
