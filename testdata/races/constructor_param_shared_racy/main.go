// One counter given to two holders' constructors: each holder updates it
// under its own mutex, so the two updates are not ordered.
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

func newHolder(c *counter) *holder { return &holder{c: c} }

func (h *holder) inc() {
	h.mu.Lock()
	h.c.n++ // want "race"
	h.mu.Unlock()
}

func main() {
	shared := &counter{}
	var wg sync.WaitGroup
	for _, h := range []*holder{newHolder(shared), newHolder(shared)} {
		wg.Add(1)
		go func() { defer wg.Done(); h.inc() }()
	}
	wg.Wait()
	fmt.Println(shared.n)
}
