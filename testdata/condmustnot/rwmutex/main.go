// Command rwmutex accesses data under a global RWMutex: two read-locked
// accesses do not exclude each other (here one of them is a write, a bug),
// a read-locked and a write-locked access do.
package main

import "sync"

var (
	rw   sync.RWMutex
	data int
	sink int
)

func reader() {
	rw.RLock()
	sink = data // @rread
	rw.RUnlock()
}

func badWriter() {
	rw.RLock()
	data = 1 // @rwrite
	rw.RUnlock()
}

func writer() {
	rw.Lock()
	data = 2 // @wwrite
	rw.Unlock()
}

// either write-locks on one path and read-locks on the other: after the
// join the lock is read-held.
func either(write bool) {
	if write {
		rw.Lock()
	} else {
		rw.RLock()
	}
	sink = data // @either
	if write {
		rw.Unlock()
	} else {
		rw.RUnlock()
	}
}

func main() {
	var wg sync.WaitGroup
	for _, f := range []func(){reader, badWriter, writer} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	go either(true)
	either(false)
	wg.Wait()
}
