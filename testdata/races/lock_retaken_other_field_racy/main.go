// As lock_retaken_same_field, but the janitor takes back another mutex of
// the cache after its sleep (c.other, not c.mu): after the branch only
// c.other or c.mu is held, not one lock on both ways, and the helper's
// write races with add's.
package main

import (
	"fmt"
	"sync"
	"time"
)

type cache struct {
	mu    sync.Mutex
	other sync.Mutex
	wait  time.Duration
	count int
}

func (c *cache) evict() { c.count-- } // want "race" (not with itself)

func (c *cache) clean() {
	c.mu.Lock()
	if c.wait > 0 {
		c.mu.Unlock()
		time.Sleep(c.wait)
		c.other.Lock()
		defer c.other.Unlock()
		c.evict()
		return
	}
	c.evict()
	c.mu.Unlock()
}

func (c *cache) add() {
	c.mu.Lock()
	c.count++ // want "race"
	c.mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	for _, c := range []*cache{{wait: time.Millisecond}, {}} {
		wg.Add(2)
		go func() { defer wg.Done(); c.clean() }()
		go func() { defer wg.Done(); time.Sleep(time.Millisecond); c.add() }()
	}
	wg.Wait()
	fmt.Println("done")
}
