// The go statement is in a helper that a constructor calls only for a
// positive interval, and the interval comes from the constructor's caller
// (go-cache's New -> newCacheWithJanitor -> runJanitor): New(0) never
// starts the janitor, so main's unlocked writes race with nothing. No race.
package main

import (
	"fmt"
	"time"
)

type cache struct {
	n int
}

func New(interval time.Duration) *cache {
	return newWithJanitor(interval)
}

func newWithJanitor(interval time.Duration) *cache {
	c := &cache{}
	if interval > 0 {
		runJanitor(c, interval)
	}
	return c
}

func runJanitor(c *cache, interval time.Duration) {
	go c.janitor(interval)
}

func (c *cache) janitor(interval time.Duration) {
	for {
		time.Sleep(interval)
		c.n = 0
	}
}

func main() {
	c := New(0)
	for range 5 {
		c.n++
		time.Sleep(2 * time.Millisecond)
	}
	fmt.Println(c.n)
}
