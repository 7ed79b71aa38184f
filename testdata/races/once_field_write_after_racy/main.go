// The Once orders only what its f does: get also counts its calls after Do
// returns, outside f, so two goroutines' updates of the count race, while
// val, written inside f, is read safely.
package main

import (
	"fmt"
	"sync"
)

type counter struct {
	once  sync.Once
	val   int
	calls int
}

func (c *counter) init() { c.val = 1 }

func (c *counter) get() int {
	c.once.Do(c.init)
	c.calls++ // want "race"
	return c.val
}

func main() {
	var wg sync.WaitGroup
	c := &counter{}
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			_ = c.get()
		}()
	}
	wg.Wait()
	fmt.Println("done")
}
