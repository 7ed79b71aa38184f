// Package spans has work whose loads and stores chordgo does not prove
// race-free, though no two goroutines share its data: each goroutine
// takes its digest state from a sync.Pool, whose hand-over chordgo does
// not model. The state's fields are read again and again between
// releases, so RedCard's span redundancy removes most of their checks
// (racefree/BENCHMARKS.md).
package spans

import "sync"

// A digest is a small mixing state.
type digest struct {
	a, b, c, d uint64
	n          int
}

var pool = sync.Pool{New: func() any { return new(digest) }}

// Sum mixes words into a digest taken from the pool and returns it.
func Sum(words []uint64) uint64 {
	s := pool.Get().(*digest)
	s.a, s.b, s.c, s.d, s.n = 1, 2, 3, 4, 0
	for _, w := range words {
		s.a += w
		s.b ^= s.a + w
		s.c += s.b ^ s.a
		s.d ^= s.c + s.b + s.a
		s.a = s.a<<7 | s.a>>57
		s.b = s.b<<11 | s.b>>53
		s.c = s.c<<17 | s.c>>47
		s.d = s.d<<23 | s.d>>41
		s.n++
	}
	sum := s.a ^ s.b ^ s.c ^ s.d ^ uint64(s.n)
	pool.Put(s)
	return sum
}
