// A constructor starts its janitor only for a positive interval, after
// turning "none" into a sentinel and storing it in the new cache
// (golang-lru's expirable.NewLRU): called with 0, the go statement never
// runs, so main's unlocked writes of c.n race with nothing. No race.
package main

import (
	"fmt"
	"time"
)

const never = time.Duration(1<<63 - 1)

type cache struct {
	interval time.Duration
	n        int
}

func newCache(interval time.Duration) *cache {
	if interval <= 0 {
		interval = never
	}
	c := cache{interval: interval}
	if c.interval != never {
		go c.janitor()
	}
	return &c
}

func (c *cache) janitor() {
	for {
		time.Sleep(c.interval)
		c.n = 0
	}
}

func main() {
	c := newCache(0)
	for range 5 {
		c.n++
		time.Sleep(2 * time.Millisecond)
	}
	fmt.Println(c.n)
}
