// A janitor that takes c.mu, lets it go while it sleeps, and takes it again
// through a new expression c.mu before it calls a helper that writes the
// cache's field: on both ways to the call c.mu is held, though each way
// locked it through its own &c.mu. Two caches keep the mutex from being a
// single object. No race.
package main

import (
	"fmt"
	"sync"
	"time"
)

type cache struct {
	mu    sync.Mutex
	wait  time.Duration
	count int
}

func (c *cache) evict() { c.count-- }

func (c *cache) clean() {
	c.mu.Lock()
	if c.wait > 0 {
		c.mu.Unlock()
		time.Sleep(c.wait)
		c.mu.Lock()
	}
	c.evict()
	c.mu.Unlock()
}

func (c *cache) add() {
	c.mu.Lock()
	c.count++
	c.mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	for _, c := range []*cache{{wait: time.Millisecond}, {}} {
		wg.Add(2)
		go func() { defer wg.Done(); c.clean() }()
		go func() { defer wg.Done(); c.add() }()
	}
	wg.Wait()
	fmt.Println("done")
}
