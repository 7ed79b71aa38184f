package mhp

import (
	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// Unique returns the abstract objects that stand for at most one concrete
// object in an execution: globals, the testing.T of a root, and objects
// whose allocation runs at most once (in all the contexts that make them),
// with their fields and elements. A lock that is a unique object is one
// lock, which is what condmustnot's global-lock proof needs.
func (gs *Goroutines) Unique(r *pointsto.Result) *bitset.BitSet {
	f := r.Facts
	runs := map[pointsto.Ctx]int{}
	for t := range r.Tuples("newObj") {
		c, h, o := t[0], t[1], t[2]
		s := f.Site(h)
		n := 2
		if s.Func != pointsto.NoID {
			n = int(gs.count.of(c, s.Func))
			if in, ok := s.Value.(ssa.Instruction); ok && gs.count.inLoop(in.Block()) {
				n *= 2
			}
		} else if s.Kind == pointsto.SiteParam {
			n = 1
		}
		runs[o] += n
	}
	unique := bitset.New(uint(r.Contexts.Len()))
	for t := range r.Tuples("globalObj") {
		unique.Set(uint(t[1]))
	}
	for o, n := range runs {
		if n <= 1 {
			unique.Set(uint(o))
		}
	}
	// subObj lists an object's sub-objects after the object itself.
	for t := range r.Tuples("subObj") {
		if unique.Test(uint(t[0])) {
			unique.Set(uint(t[2]))
		}
	}
	return unique
}
