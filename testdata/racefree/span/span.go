// Package span has one function per case of RedCard's span redundancy
// (racefree.TestSpanRedundant): a "covered" comment lists the kinds (R
// for a load, W for a store) of the loads and stores of its line whose
// check the rule removes; a line without one has none removed.
package span

import (
	"sync"
	"sync/atomic"
)

type S struct {
	mu    sync.Mutex
	n, m  int
	xs    []int
	arr   [4]int
	p     *S
	flag  atomic.Bool
	count int
}

// twice: the second ++ reads and writes what the first wrote.
func twice(s *S) {
	s.n++
	s.n++ // covered R W
}

// readCoversRead: a read covers a later read.
func readCoversRead(s *S) int {
	a := s.n
	b := s.n // covered R
	return a + b
}

// readNotWrite: a read does not cover a later write.
func readNotWrite(s *S) {
	a := s.n
	s.n = a + 1
}

// writeCoversRead: a write covers a later read and write.
func writeCoversRead(s *S) int {
	s.n = 1
	s.n = 2    // covered W
	return s.n // covered R
}

// unlockBetween: a release ends the span.
func unlockBetween(s *S) {
	s.mu.Lock()
	s.n = 1
	s.mu.Unlock()
	s.n = 2
}

// lockBetween: a call ends the span, even one that only acquires.
func lockBetween(s *S) {
	s.n = 1
	s.mu.Lock()
	s.n = 2
	s.mu.Unlock()
}

// underLock: the accesses between Lock and Unlock are one span.
func underLock(s *S, v int) {
	s.mu.Lock()
	s.count++
	s.n += v
	s.n += v  // covered R W
	s.count++ // covered R W
	s.m = s.n // covered R
	s.mu.Unlock()
}

// channelOps: sends, receives, closes and go statements end the span.
func channelOps(s *S, ch chan int) {
	s.n = 1
	ch <- 1
	s.n = 2
	<-ch
	s.n = 3
	go func() {}()
	s.n = 4
	close(ch)
	s.n = 5
	select {
	case <-ch:
	default:
	}
	s.n = 6
}

// atomicStore: an atomic operation is a call.
func atomicStore(s *S) {
	s.n = 1
	s.flag.Store(true)
	s.n = 2
}

// deferBetween: a defer statement ends the span.
func deferBetween(s *S) {
	s.n = 1
	defer s.mu.Unlock()
	s.n = 2
}

// oneBranch: a location accessed on one path only is not available.
func oneBranch(s *S, c bool) {
	if c {
		s.n = 1
	}
	s.n = 2
}

// bothBranches: accessed on both paths, once as a write only.
func bothBranches(s *S, c bool) int {
	if c {
		s.n = 1
	} else {
		_ = s.n
	}
	s.m = s.n // covered R
	s.n = 3
	return s.n // covered R
}

// builtins: len, append and copy do not synchronize.
func builtins(s *S) {
	s.xs = nil
	s.xs = append(s.xs, len(s.xs)) // covered R R W
	copy(s.xs, s.xs)               // covered R R
}

// loop: s.count, written before the loop, stays available in it; the
// elements are not covered, as each s.xs[i] goes through its own load of
// s.xs (a new value), and i is a new value in each iteration.
func loop(s *S) {
	s.count = 0
	for i := range s.xs {
		s.xs[i] = i // covered R
		s.xs[i]++   // covered R
		s.count++   // covered R W
	}
}

// loopCall: a call in the loop body ends the span on the back edge too.
func loopCall(s *S, f func()) {
	s.count = 0
	for range 3 {
		s.count++
		f()
	}
}

// indexes: the same constant index is the same element, another index
// another element.
func indexes(s *S, i, j int) {
	s.arr[1] = 1
	s.arr[1] = 2 // covered W
	s.arr[i] = 3
	s.arr[j] = 4
	s.arr[i] = 5 // covered W
}

// throughMemory: a pointer loaded twice is two values: the loads of s.p
// are covered, the stores through them are not.
func throughMemory(s *S) {
	s.p.n = 1
	s.p.n = 2 // covered R
}

// global: a global variable is one location.
var hits int

func global() {
	hits++
	hits++ // covered R W
}
