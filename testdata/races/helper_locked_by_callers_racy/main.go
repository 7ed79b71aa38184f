// A helper called with its receiver's mutex held by one caller (add) and
// without it by another (reset): the helper's writes race with themselves.
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	mu sync.Mutex
	n  int
}

func (c *cache) set(v int) {
	c.n = v // want "race"
}

func (c *cache) add(v int) {
	c.mu.Lock()
	c.set(c.n + v) // want "race"
	c.mu.Unlock()
}

func (c *cache) reset() {
	c.set(0)
}

func main() {
	var wg sync.WaitGroup
	for _, c := range []*cache{{}, {}} {
		wg.Add(2)
		go func() { defer wg.Done(); c.add(1) }()
		go func() { defer wg.Done(); c.reset() }()
	}
	wg.Wait()
	fmt.Println("done")
}
