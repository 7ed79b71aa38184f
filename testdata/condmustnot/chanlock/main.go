// Command chanlock guards counters with channels of capacity 1 used as
// locks (a send takes the lock, a receive releases it) and with channels
// that are not locks: one that a goroutine receives from without having
// sent, one of capacity 2, one that is closed.
package main

import (
	"sync"
	"time"
)

var (
	mtx    = make(chan struct{}, 1) // a lock: every receiver sent first
	stray  = make(chan struct{}, 1) // drain receives without having sent
	cap2   = make(chan struct{}, 2) // two holders at once
	closer = make(chan struct{}, 1) // closed
	sel    = make(chan struct{}, 1) // a lock taken and released in selects
	never  = make(chan bool)        // nothing sends on it or closes it
	ready  = make(chan bool)        // sent on
	a, b   = make(chan bool, 1), make(chan bool, 1)

	nMtx, nStray, nCap2, nCloser, nSel, nReady, nTimer, nA, nB int
)

func locked() {
	mtx <- struct{}{}
	nMtx++ // @locked
	<-mtx
	nMtx-- // @released
}

func lock()   { mtx <- struct{}{} }
func unlock() { <-mtx }

func helpers() {
	lock()
	nMtx += 2 // @helper
	unlock()
	nMtx -= 2 // @afterhelper
}

func strayed() {
	stray <- struct{}{}
	nStray++ // @stray
	<-stray
}

func drain() { <-stray }

func counted() {
	cap2 <- struct{}{}
	nCap2++ // @cap2
	<-cap2
}

func closed() {
	closer <- struct{}{}
	nCloser++ // @closer
	<-closer
}

// selected takes sel in a select whose other case is never chosen.
func selected() {
	select {
	case sel <- struct{}{}:
	case <-never:
	}
	nSel++ // @sel
	select {
	case <-sel:
	case <-never:
	}
}

// selectReady may take the ready case instead of the lock.
func selectReady() {
	select {
	case sel <- struct{}{}:
	case <-ready:
	}
	nReady++ // @selready
}

// selectTimer may take the timer's case instead of the lock: the runtime
// sends on the timer's channel.
func selectTimer() {
	select {
	case sel <- struct{}{}:
	case <-time.After(time.Millisecond):
	}
	nTimer++ // @seltimer
}

// selectTick likewise; the points-to loses time.Tick's channel (it is made
// behind an unsafe conversion): a channel that points to nothing need not
// be nil.
func selectTick() {
	select {
	case sel <- struct{}{}:
	case <-time.Tick(time.Millisecond):
	}
	nTimer++ // @seltick
}

// bump receives through the very channel value it sent on: the receive
// holds whichever of a and b it is.
func bump(sem chan bool, n *int) {
	sem <- true
	*n++
	<-sem
}

func useA() {
	a <- true
	nA++ // @viaparam
	<-a
}

func main() {
	var wg sync.WaitGroup
	for _, f := range []func(){
		locked, locked, helpers, strayed, strayed, drain, counted, counted,
		closed, closed, selected, selected, useA, useA,
		func() { bump(a, &nA) }, func() { bump(b, &nB) },
	} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
	close(closer)
	go selectReady()
	go selectTimer()
	go selectTick()
	ready <- true
}
