// Naik's thesis, Fig. 3.1, fine-grained locking (thrd = T.g[*], lock = ve).
// Thesis: race-free; localUnlockedRaces drops the race on e because the accessed
// object ve must-aliases the lock's base (distinct locks => distinct C objects).
// Java threads become goroutines (go vt.run()); synchronized(ve) becomes ve.mu.
// Every goroutine picks g[0], so they really share one C. g is filled before any
// goroutine starts, keeping Java's g[i] stores out of the picture.
package main

import "sync"

type C struct {
	mu sync.Mutex
	f2 int
}

type T struct{ f1 *C }

var g []*T

func newT() *T { return &T{f1: &C{}} } // h2, h3

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	vt := g[0] // thrd = T.g[*]
	ve := vt.f1
	ve.mu.Lock() // lock = ve
	ve.f2++      // e
	ve.mu.Unlock()
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
