// Naik's thesis, Fig. 4.1. Thesis: race-free; p1-p1 and p2-p2 fall to conditional
// must-not-alias at k=1, p1-p2 (int arrays from hi) after the demand loop raises k
// (hi to 3, hc to 2). Java threads are goroutines, C's constructor is init, and the
// lock is v4 (Go can't lock the slices v3, v5). All goroutines pick g[0], sharing p2.
package main

import "sync"

type C struct {
	mu sync.Mutex
	f2 []int
}

func (c *C) init() { c.f2 = make([]int, 4) } // hi

func newInstance() *C { // C.newInstance
	c := &C{} // hc
	c.init()
	return c
}

type T struct{ f1 *C }

var g []*C

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	v1 := t.f1
	v2 := v1.f2
	v2[1] = 1  // p1
	v4 := g[0] // v3 = T.g; v4 = v3[*]
	v5 := v4.f2
	v4.mu.Lock() // lock = v4
	v5[1]++      // p2
	v4.mu.Unlock()
}

func main() {
	g = make([]*C, 3) // hg
	for i := range g {
		g[i] = newInstance()
	}
	var wg sync.WaitGroup
	for range 3 {
		t := &T{f1: newInstance()} // ht
		wg.Add(1)
		go t.run(&wg)
	}
	wg.Wait()
}
