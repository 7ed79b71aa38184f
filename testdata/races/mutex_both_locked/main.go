// sync.Mutex: both increments of c.n hold the same mutex, so they are ordered by
// Unlock/Lock. No race.
package main

import (
	"fmt"
	"sync"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func main() {
	c := &counter{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}()
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	wg.Wait()
	fmt.Println(c.n)
}
