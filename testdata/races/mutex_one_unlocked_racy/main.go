// sync.Mutex on one side only: the goroutine locks around c.n++, main does not,
// so the lock orders nothing.
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
		c.n++ // want "race"
		c.mu.Unlock()
	}()
	c.n++ // want "race"
	wg.Wait()
	fmt.Println(c.n)
}
