// A constructor stores a counter that its caller allocated for it, passed
// down through two calls; each holder updates its counter under its own
// mutex. Every counter belongs to one holder, so the holder's mutex
// protects it. No race.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

type holder struct {
	mu sync.Mutex
	c  *counter
}

func newHolder(c *counter) *holder   { return &holder{c: c} }
func withCounter(c *counter) *holder { return newHolder(c) }
func New() *holder                   { return withCounter(&counter{}) }

func (h *holder) inc() {
	h.mu.Lock()
	h.c.n++
	h.mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	for _, h := range []*holder{New(), New()} {
		wg.Add(2)
		go func() { defer wg.Done(); h.inc() }()
		go func() { defer wg.Done(); h.inc() }()
	}
	wg.Wait()
	fmt.Println("done")
}
