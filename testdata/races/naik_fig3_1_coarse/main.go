// Naik's thesis, Fig. 3.1, coarse-grained locking (thrd = T.g[*], lock = T.g).
// Thesis: race-free; globalUnlockedRaces drops the race on e because the lock is
// one object allocated at a site (h1) executed once. Java threads become goroutines
// (vt.start() is go vt.run()); Java locks the array T.g itself, Go locks g.mu, a
// mutex in the one table object that holds the slice. Every goroutine picks
// g.ts[0], so they really share one C. g is filled before any goroutine starts, to
// keep Java's g[i] stores (a side issue the thesis ignores) out of the picture.
package main

import "sync"

type C struct{ f2 int }

type T struct{ f1 *C }

type table struct {
	mu sync.Mutex
	ts []*T
}

var g *table

func newT() *T { return &T{f1: &C{}} } // h2, h3

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	vt := g.ts[0] // thrd = T.g[*]
	ve := vt.f1
	g.mu.Lock() // lock = T.g
	ve.f2++     // e
	g.mu.Unlock()
}

func main() {
	g = &table{ts: make([]*T, 4)} // h1
	for i := range g.ts {
		g.ts[i] = newT()
	}
	var wg sync.WaitGroup
	for _, vt := range g.ts {
		wg.Add(1)
		go vt.run(&wg)
	}
	wg.Wait()
}
