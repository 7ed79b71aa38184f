// Read under the lock, write after Unlock (a lost-update bug): the writes are
// unprotected, and a read in one goroutine races with the other's write.
package main

import (
	"fmt"
	"sync"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc() {
	c.mu.Lock()
	v := c.n // want "race"
	c.mu.Unlock()
	c.n = v + 1 // want "race"
}

func main() {
	c := &counter{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			c.inc()
		}()
	}
	wg.Wait()
	fmt.Println(c.n)
}
