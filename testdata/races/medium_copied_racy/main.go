// Medium-grained locking broken by a copy: the second holder is a copy of the
// first, counter pointer included (and a fresh mutex: the first is unlocked when
// copied). Each goroutine holds its own holder's mutex; both update one counter.
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

func newHolder() *holder { return &holder{c: &counter{}} }

func (h *holder) inc() {
	h.mu.Lock()
	h.c.n++ // want "race"
	h.mu.Unlock()
}

func main() {
	h1 := newHolder()
	h2 := new(holder)
	*h2 = *h1
	var wg sync.WaitGroup
	for _, h := range []*holder{h1, h2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.inc()
		}()
	}
	wg.Wait()
	fmt.Println(h1.c.n)
}
