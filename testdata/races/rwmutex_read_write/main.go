// sync.RWMutex: two readers read c.n under RLock, a writer writes it under Lock.
// Reads don't race with reads, and Lock excludes the readers. No race.
package main

import (
	"fmt"
	"sync"
)

type config struct {
	mu sync.RWMutex
	n  int
}

func (c *config) get() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.n
}

func main() {
	c := &config{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			_ = c.get()
		}()
	}
	c.mu.Lock()
	c.n = 5
	c.mu.Unlock()
	wg.Wait()
	fmt.Println(c.get())
}
