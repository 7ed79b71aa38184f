// Naik's thesis, Fig. 3.1, medium-grained locking (thrd = T.g[*], lock = vt).
// Thesis: race-free; localUnlockedRaces drops the race on e because ve = vt.f1 and
// disjoint reachability shows distinct T objects (h2) reach distinct C objects (h3).
// Java threads become goroutines (go vt.run()); synchronized(vt) becomes vt.mu.
// Every goroutine picks g[0], so they really share one T and one C. g is filled
// before any goroutine starts, keeping Java's g[i] stores out of the picture.
package main

import "sync"

type C struct{ f2 int }

type T struct {
	mu sync.Mutex
	f1 *C
}

var g []*T

func newT() *T { return &T{f1: &C{}} } // h2, h3

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	vt := g[0] // thrd = T.g[*]
	ve := vt.f1
	vt.mu.Lock() // lock = vt
	ve.f2++      // e
	vt.mu.Unlock()
}

func main() {
	g = make([]*T, 4) // h1
	for i := range g {
		g[i] = newT()
	}
	var wg sync.WaitGroup
	for _, vt := range g {
		wg.Add(1)
		go vt.run(&wg)
	}
	wg.Wait()
}
