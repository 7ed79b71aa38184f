// As go_under_constant_param, but called with an interval of 1ms: the
// janitor starts, and its reset of c.n races with main's increments.
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
		c.n = 0 // want "race"
	}
}

func main() {
	c := newCache(time.Millisecond)
	for range 5 {
		c.n++ // want "race"
		time.Sleep(2 * time.Millisecond)
	}
	fmt.Println(c.n) // want "race"
}
