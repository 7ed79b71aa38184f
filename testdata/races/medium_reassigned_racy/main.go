// Medium-grained locking broken by a reassignment: each holder makes its own
// counter, then the second takes the first one's. Each goroutine holds its own
// holder's mutex, and both update the first counter.
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
	h1, h2 := newHolder(), newHolder()
	h2.c = h1.c
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
