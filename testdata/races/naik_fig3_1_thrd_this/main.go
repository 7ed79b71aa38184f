// Naik's thesis, Fig. 3.1 with thrd = this: each goroutine writes the C of its own
// T. Thesis: race-free; threadUnlockedRaces drops the race on e (distinct thread
// objects reach distinct C objects), so the lock is redundant and is left out here.
// Java threads become goroutines: the T receiver of go vt.run() is the thread
// object. g is filled before any goroutine starts, as in the other variants.
package main

import "sync"

type C struct{ f2 int }

type T struct{ f1 *C }

var g []*T

func newT() *T { return &T{f1: &C{}} } // h2, h3

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	vt := t // thrd = this
	ve := vt.f1
	ve.f2++ // e
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
