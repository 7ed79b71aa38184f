// The object's Once is reset by assigning a zero Once after the goroutine's
// Do returned: main's Do then runs load again, and its write races with the
// goroutine's read after its own Do.
package main

import (
	"fmt"
	"sync"
)

type config struct {
	once sync.Once
	mode string
}

func (c *config) load() { c.mode = "fast" } // want "race" (not with itself)

func main() {
	c := &config{}
	ready := make(chan bool)
	done := make(chan string)
	go func() {
		c.once.Do(c.load)
		ready <- true
		done <- c.mode // want "race" (not with itself)
	}()
	<-ready
	c.once = sync.Once{}
	c.once.Do(c.load)
	fmt.Println(<-done)
}
