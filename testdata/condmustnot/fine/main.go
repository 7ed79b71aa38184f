// Command fine guards each counter's fields with the counter's own mutex
// (fine-grained locking). The counters come from a constructor called in a
// loop, so no lock is a single object.
package main

import "sync"

type counter struct {
	mu    sync.Mutex
	other sync.Mutex
	n     int
	m     int
}

func newCounter() *counter { return &counter{} }

func (c *counter) inc() {
	c.mu.Lock()
	c.n++ // @incn
	c.mu.Unlock()
}

func (c *counter) dec() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n-- // @decn
}

func (c *counter) incM() {
	c.mu.Lock()
	c.m++ // @incm
	c.mu.Unlock()
}

// decM takes another mutex than incM.
func (c *counter) decM() {
	c.other.Lock()
	c.m-- // @decm
	c.other.Unlock()
}

// transfer holds c's mutex but updates d.
func (c *counter) transfer(d *counter) {
	c.mu.Lock()
	d.n += 10 // @xfer
	c.mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	var prev *counter
	for range 2 {
		c := newCounter()
		if prev == nil {
			prev = c
		}
		for _, f := range []func(){c.inc, c.dec, c.incM, c.decM, func() { c.transfer(prev) }} {
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		}
	}
	wg.Wait()
}
