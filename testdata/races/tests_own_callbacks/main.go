// Two tests of one package each make a cache with its own eviction
// callback; the cache's janitor goroutine runs the callback of its cache
// only. Tests run one after the other: TestA's callback never runs in
// TestB's janitor. TestB reads its counter before its janitor is done: a
// race within TestB (main_test.go).
package main

import "sync"

type Cache struct {
	mu      sync.Mutex
	items   map[string]int
	onEvict func(string)
}

// defaults is allocated by the package initializer, before every test:
// both tests' caches read it.
var defaults = []string{"x"}

func New(onEvict func(string)) *Cache {
	return &Cache{items: map[string]int{defaults[0]: 1}, onEvict: onEvict}
}

func (c *Cache) Evict(k string) {
	c.mu.Lock()
	delete(c.items, k)
	cb := c.onEvict
	c.mu.Unlock()
	cb(k)
}

// StartJanitor evicts "x" in a new goroutine and then sends on done.
func (c *Cache) StartJanitor(done chan bool) {
	go func() {
		c.Evict("x")
		done <- true
	}()
}

func main() {}
