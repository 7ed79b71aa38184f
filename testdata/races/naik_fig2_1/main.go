// Naik's thesis, Fig. 2.1. Java threads are goroutines (v3.start() is go v3.run()),
// synchronized(b) is b.mu; labels as in the figure. Thesis: Chord reports e9 (main
// reads v1's A.f4) vs e10 (children write it), tuple #34, and misses e10 vs e10
// between children (#32, a false negative of its unsound lockset); a sound analysis
// and -race report both. v2's A.f4 is always accessed under v2.mu (#35): no race.
package main

import "sync"

type A struct{ f4 int }

func newA() *A         { return &A{f4: 0} } // h4, e8
func (a *A) get() int  { return a.f4 }      // e9 // want "race"
func (a *A) set(i int) { a.f4 = i }         // e10 // want "race"

type B struct {
	mu sync.Mutex
	f3 *A
}

func newB() *B         { return &B{f3: newA()} } // e5
func (b *B) get() int  { return b.f3.get() }     // e6, i10
func (b *B) set(i int) { b.f3.set(i) }           // e7, i11

type T struct{ f1, f2 *B }

func (t *T) run(wg *sync.WaitGroup) {
	defer wg.Done()
	v6, v7 := t.f1, t.f2 // e3, e4
	v7.mu.Lock()         // l2
	_ = v7.get()         // i7
	v7.mu.Unlock()
	v6.set(1) // i8
}

func main() {
	v1, v2 := newB(), newB() // h1, h2
	var wg sync.WaitGroup
	for range 3 {
		v3 := &T{f1: v1, f2: v2} // h3, e1, e2
		wg.Add(1)
		go v3.run(&wg) // i4
	}
	for v1.get() == 0 { // i5
		v2.mu.Lock() // l1
		v2.set(2)    // i6
		v2.mu.Unlock()
	}
	wg.Wait()
}
