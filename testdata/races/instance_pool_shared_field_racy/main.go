// Like instance_pool_global_racy, through a field of an object main hands to
// every worker: the first worker's counter is the one all bump.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

type hub struct {
	mu  sync.Mutex
	cur *stats
}

func work(h *hub, wg *sync.WaitGroup) {
	defer wg.Done()
	mine := &stats{}
	h.mu.Lock()
	if h.cur == nil {
		h.cur = mine
	}
	s := h.cur
	h.mu.Unlock()
	s.n++ // want "race"
}

func main() {
	const workers = 4
	h := &hub{}
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go work(h, &wg)
	}
	wg.Wait()
	fmt.Println(h.cur.n)
}
