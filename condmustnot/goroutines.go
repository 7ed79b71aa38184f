package condmustnot

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/chordgo/chordgo/internal/scc"
	"github.com/chordgo/chordgo/pointsto"

	"golang.org/x/tools/go/ssa"
)

// GoroutineLocksets gives the locks that must be held at an access where
// one abstract goroutine runs it: a function's entry lockset is met over
// the calls made in that goroutine only, each from its caller's entry
// lockset in that goroutine (the goroutine is the context of Naik's
// context-sensitive locksets). A helper that the janitor goroutine calls
// only with the cache's mutex held holds it there, even if a test calls
// the same helper, in its own goroutine, without it.
//
// Sound: in goroutine g, every run of a function m that g did not start
// with is called from a call site in a function g runs (a call stack
// belongs to one goroutine; a go statement's function starts another), so
// what all of g's calls of m hold is held at m's entry in g. A function on
// a cycle of calls takes the global entry lockset, which every call meets
// into and so holds less (asking along the cycle would make the answer
// depend on which member was asked first).
//
// Where every call of a function in g holds one unique mutex, each through
// a value of its own (Add and Get of a cache each lock c.mu and call the
// list's MoveToFront, in a goroutine where c can only be one cache), the
// entry holds that mutex as an object lock (withObjectLocks).
type GoroutineLocksets struct {
	a       *analysis
	of      func(m uint32) []uint32 // the goroutines that may run m
	starts  func(g, m uint32) bool  // g starts by running m
	in      func(g uint32) func(m uint32) []pointsto.Ctx
	unique  func(o pointsto.Ctx) bool
	callers [][]uint32                             // by M: the call sites that may call it
	root    []bool                                 // by M: a root (a test, main): entered with nothing
	entry   map[[2]uint32]lockset                  // (m, g)
	cyclic  []bool                                 // by M: on a cycle of plain or deferred calls
	before  map[string]map[ssa.Instruction]lockset // m and an entry lockset -> the lockset before each call and access
	via     map[string]viaEntry                    // entryVia, by goroutine, callee and chain
}

// ByGoroutine returns the locksets per goroutine, computed on demand: of
// gives the goroutines that may run a function, starts whether a goroutine
// starts by running it (mhp.Goroutines has both). in gives, for a
// goroutine, the contexts in which it may runs each function, sorted (nil
// for a goroutine: not known), and unique the objects that exist at most
// once; with both, calls that hold one unique mutex through different
// values pass it as an object lock. Either may be nil: no object locks.
func (l *Locksets) ByGoroutine(of func(m uint32) []uint32, starts func(g, m uint32) bool,
	in func(g uint32) func(m uint32) []pointsto.Ctx, unique func(o pointsto.Ctx) bool) *GoroutineLocksets {
	a := l.flow
	gl := &GoroutineLocksets{a: a, of: of, starts: starts, in: in, unique: unique, callers: make([][]uint32, len(a.entry)), root: make([]bool, len(a.entry)),
		entry: map[[2]uint32]lockset{}, cyclic: a.cyclic(), before: map[string]map[ssa.Instruction]lockset{}, via: map[string]viaEntry{}}
	for i, ms := range a.cg {
		for _, m := range ms {
			gl.callers[m] = append(gl.callers[m], i)
		}
	}
	for _, is := range gl.callers {
		slices.Sort(is) // the same meets in the same order, run after run
	}
	for _, t := range a.f.Tuples("entry") {
		gl.root[t[0]] = true
	}
	return gl
}

// In returns the locks that must be held at access e where goroutine g
// runs it, sorted by Ptr: at least those of Locksets.Access.
func (gl *GoroutineLocksets) In(e, g uint32) []Held {
	f := gl.a.f
	return gl.heldBefore(f.AccessFunc(e), g, f.Access(e))
}

// AtCall returns the locks that must be held just before call site i (a
// P id) where goroutine g makes it, sorted by Ptr: the locks held on that
// frame of a call path.
func (gl *GoroutineLocksets) AtCall(i, g uint32) []Held {
	f := gl.a.f
	return gl.heldBefore(f.Caller(i), g, f.Call(i))
}

// heldBefore returns a copy of the lockset before instruction instr of m, in
// g; none where the dataflow does not run.
func (gl *GoroutineLocksets) heldBefore(m, g uint32, instr ssa.Instruction) []Held {
	if !gl.a.flow[m] {
		return nil
	}
	return slices.Clone(gl.lockset(m, g, instr))
}

// lockset returns the lockset before instruction instr of m, in g.
func (gl *GoroutineLocksets) lockset(m, g uint32, instr ssa.Instruction) lockset {
	return gl.beforeFrom(m, gl.entryIn(m, g), instr)
}

// beforeFrom returns the lockset before instruction instr of m when m
// starts holding entry.
func (gl *GoroutineLocksets) beforeFrom(m uint32, entry lockset, instr ssa.Instruction) lockset {
	key := fmt.Sprint(m, entry)
	before, ok := gl.before[key]
	if !ok {
		a := gl.a
		before = map[ssa.Instruction]lockset{}
		a.flowFrom(m, entry, func(instr ssa.Instruction, held lockset) {
			if len(a.f.AccessesAt(m, instr)) > 0 || len(a.calls[instr]) > 0 {
				before[instr] = slices.Clone(held)
			}
		})
		gl.before[key] = before
	}
	return before[instr]
}

// entryIn returns m's entry lockset in goroutine g.
func (gl *GoroutineLocksets) entryIn(m, g uint32) lockset {
	a := gl.a
	key := [2]uint32{m, g}
	if s, ok := gl.entry[key]; ok {
		return s
	}
	if gl.cyclic[m] {
		// The global entry, which holds less: meeting the calls would
		// ask m's own entry, and which answer a cycle's members got
		// would depend on which was asked first.
		return a.entry[m]
	}
	s := gl.meetCalls(m, g)
	gl.entry[key] = s
	return s
}

// cyclic reports, by M, whether a function is on a cycle of the call
// graph's plain and deferred calls.
func (a *analysis) cyclic() []bool {
	f := a.f
	succ := make([][]int, len(a.entry))
	for i, ms := range a.cg {
		if a.goCall[i] {
			continue
		}
		caller := f.Caller(i)
		for _, m := range ms {
			succ[caller] = append(succ[caller], int(m))
		}
	}
	comp, n := scc.Components(succ)
	size := make([]int, n)
	for _, c := range comp {
		size[c]++
	}
	out := make([]bool, len(succ))
	for m, c := range comp {
		out[m] = size[c] > 1 || slices.Contains(succ[m], m)
	}
	return out
}

// meetCalls meets what the calls of m made in g pass in, as solve does
// for all of them.
func (gl *GoroutineLocksets) meetCalls(m, g uint32) lockset {
	a := gl.a
	if gl.root[m] || gl.starts(g, m) {
		return nil
	}
	var out lockset
	met := false
	for _, i := range gl.callers[m] {
		caller := a.f.Caller(i)
		switch {
		case a.goCall[i] || !slices.Contains(gl.of(caller), g):
			continue // another goroutine's call, or one made in another goroutine
		case a.defer_[i] || !a.flow[caller]:
			return nil
		}
		s := gl.withObjectLocks(a.translate(i, m, gl.lockset(caller, g, a.f.Call(i))), g)
		if met {
			out = meet(out, s)
		} else {
			out, met = s, true
		}
		if len(out) == 0 {
			return nil
		}
	}
	if !met {
		return a.entry[m] // called in g only from code the dataflow does not see
	}
	return out
}

// withObjectLocks adds to s the object lock of each unique mutex that a
// Held of s must be in goroutine g: one whose pointer, in the contexts in
// which g runs the pointer's function, points to that one object only.
// Sound: the Held's mutex is then that object's one concrete mutex (the
// argument of condmustnot.dl's guarded, per goroutine: Locksets.heldObjs),
// so s holds it whichever value took it; the object lock is released by
// every unlock that may release the object, as any Held of it is, and the
// object, existing once, is the same wherever it is held.
func (gl *GoroutineLocksets) withObjectLocks(s lockset, g uint32) lockset {
	if gl.in == nil || gl.unique == nil {
		return s
	}
	in := gl.in(g)
	if in == nil {
		return s
	}
	a := gl.a
	out := s
	for _, h := range s {
		if a.isObjectLock(h.Ptr) || a.heldBits[h.Ptr] == nil || a.isChanHeld(h.Ptr) {
			continue
		}
		objs := a.heldObjs(h.Ptr, in)
		if len(objs) != 1 || !gl.unique(objs[0]) {
			continue
		}
		id := a.objectLockID(objs[0], h.Ptr)
		k, found := slices.BinarySearchFunc(out, id, func(x Held, p uint32) int { return cmp.Compare(x.Ptr, p) })
		if found {
			if out[k].Read && !h.Read {
				out = slices.Clone(out)
				out[k].Read = false
			}
			continue
		}
		out = slices.Insert(slices.Clone(out), k, Held{Ptr: id, Read: h.Read})
	}
	return out
}
