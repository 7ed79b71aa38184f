// sync.RWMutex misuse: two goroutines write c.n while holding only the read lock;
// read locks don't exclude each other, so the writes race.
package main

import (
	"fmt"
	"sync"
)

type config struct {
	mu sync.RWMutex
	n  int
}

func (c *config) bump() {
	c.mu.RLock()
	c.n++ // want "race"
	c.mu.RUnlock()
}

func main() {
	c := &config{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			c.bump()
		}()
	}
	wg.Wait()
	fmt.Println(c.n)
}
