// Medium-grained locking broken by sharing: one counter is stored into two
// holders, and each goroutine holds its own holder's mutex while it updates
// the counter it reaches through its holder. Two mutexes, one counter.
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

func (h *holder) inc() {
	h.mu.Lock()
	h.c.n++ // want "race"
	h.mu.Unlock()
}

func main() {
	c := &counter{}
	h1, h2 := &holder{c: c}, &holder{c: c}
	var wg sync.WaitGroup
	for _, h := range []*holder{h1, h2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.inc()
		}()
	}
	wg.Wait()
	fmt.Println(c.n)
}
