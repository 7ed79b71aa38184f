// Naik's thesis, Fig. 3.1 with thrd = T.g[*] and no lock at all: the race the
// three locking styles prevent. Two goroutines may pick the same T (here all pick
// g[0]) and write the same C.f2 unordered. Java threads become goroutines.
package main

import "sync"

type C struct{ f2 int }

type T struct{ f1 *C }

var g []*T

func newT() *T { return &T{f1: &C{}} } // h2, h3

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	vt := g[0] // thrd = T.g[*]
	ve := vt.f1
	ve.f2++ // e // want "race"
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
