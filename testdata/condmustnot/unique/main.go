// Command unique guards counters with locks that are one object (a global
// mutex, a mutex allocated once in main) and with locks that are not: a
// mutex allocated by a constructor called twice, a pointer that may be
// either of two mutexes.
package main

import "sync"

var (
	globalMu sync.Mutex
	mu1, mu2 sync.Mutex
	nGlobal  int
	nLocal   int
	nBox     int
	nEither  int
)

type box struct{ mu sync.Mutex }

func newBox() *box { return &box{} }

func withGlobal() {
	globalMu.Lock()
	nGlobal++ // @global
	globalMu.Unlock()
}

func withLocal(mu *sync.Mutex) {
	mu.Lock()
	nLocal++ // @local
	mu.Unlock()
}

func withBox(b *box) {
	b.mu.Lock()
	nBox++ // @box
	b.mu.Unlock()
}

func withEither(mu *sync.Mutex) {
	mu.Lock()
	nEither++ // @either
	mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	local := new(sync.Mutex)
	b1, b2 := newBox(), newBox()
	for _, f := range []func(){
		withGlobal, withGlobal,
		func() { withLocal(local) }, func() { withLocal(local) },
		func() { withBox(b1) }, func() { withBox(b2) },
		func() { withEither(&mu1) }, func() { withEither(&mu2) },
	} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}
