package mhp

import (
	"go/types"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// onceRuns says, by function, which runs of a sync.Once's f its code lies
// in, and which Do calls return after it.
type onceRuns struct {
	within  map[uint32][]uint32       // by M: the Once objects whose f's one run every run of m lies in
	returns map[uint32]*bitset.BitSet // by M: the Do events that return after every run of m
	written map[uint32]bool           // the objects a write that is not atomic may reset (mhp.dl's stateWritten)

	bound    map[*ssa.Function]fieldOnce          // boundOnce, by method
	closures map[*ssa.Function][]*ssa.MakeClosure // closuresOf, made at its first use
}

// findOnceRuns places functions inside the f of a sync.Once. The Go
// memory model: the completion of the single call of f() from once.Do(f)
// is synchronized before the return of any call of once.Do(f). So an
// access that runs inside that call of f happens before every Do on the
// same Once returns, and two accesses inside it run in one goroutine, one
// after the other: f runs once, in the goroutine of the Do that runs it.
//
// A function m lies inside the f of Once object O when O exists once
// (Goroutines.Unique: then every Do on O is on one concrete Once, and an
// abstract object that may stand for several would let the f of one order
// the Do of another), no write that is not atomic may reset O (mhp.dl's
// stateWritten: once = sync.Once{} would let f run again), and every call
// of m is either the call of f inside the Once's own methods, made there
// only for O (the methods run in the context of their receiver), or a
// plain or deferred call from a function that lies inside the f of O
// (a greatest fixpoint, so that recursion inside f counts). A go statement
// inside f starts a goroutine that does not lie inside it; a root, an init
// or a function with no call we see lies inside nothing.
//
// Each Do call, but one in a go statement, is an event that acq follows
// (Do returns only after f completes): the Do events whose receiver may
// point to O alone return after every function inside the f of O.
func (o *Order) findOnceRuns(r *pointsto.Result, unique *bitset.BitSet) {
	f := o.f
	o.once = &onceRuns{within: map[uint32][]uint32{}, returns: map[uint32]*bitset.BitSet{}, written: map[uint32]bool{},
		bound: map[*ssa.Function]fieldOnce{}}
	fCalls := map[uint32]bool{} // the calls of f in the methods of sync.Once
	for _, t := range f.Tuples("callSite") {
		if fn := f.Func(t[1]); fn != nil && isOnceMethod(fn) && dynamicCall(f.Call(t[0])) {
			fCalls[t[0]] = true
		}
	}
	onceOf := map[uint32][]uint32{} // function -> the Once objects it is the f of
	for t := range r.Tuples("callEdge") {
		if c, i, m := t[0], t[1], t[3]; fCalls[i] && !slices.Contains(onceOf[m], c) {
			onceOf[m] = append(onceOf[m], c)
		}
	}
	written := o.once.written
	for t := range o.gs.Tuples("stateWritten") {
		written[t[0]] = true
	}
	entry := map[uint32]bool{}
	for _, t := range f.Tuples("entry") {
		entry[t[0]] = true
	}
	doEvents := map[uint32]*bitset.BitSet{} // Once object -> the Do events on it alone
	for id, ev := range o.events {
		if obj, ok := o.oneSyncObj(ev.id); ev.kind == evOnce && ok {
			if doEvents[obj] == nil {
				doEvents[obj] = bitset.New(uint(len(o.events)))
			}
			doEvents[obj].Set(uint(id))
		}
	}
	var onces []uint32
	for _, objs := range onceOf {
		if len(objs) == 1 && unique.Test(uint(objs[0])) && !written[objs[0]] && !slices.Contains(onces, objs[0]) {
			onces = append(onces, objs[0])
		}
	}
	slices.Sort(onces)
	for _, once := range onces {
		for _, m := range o.insideOnce(once, fCalls, onceOf, entry) {
			o.once.within[m] = append(o.once.within[m], once)
			if doEvents[once] == nil {
				continue
			}
			if o.once.returns[m] == nil {
				o.once.returns[m] = bitset.New(uint(len(o.events)))
			}
			o.once.returns[m].InPlaceUnion(doEvents[once])
		}
	}
}

// insideOnce returns the functions that lie inside the f of Once object
// once (see findOnceRuns): the greatest set of the functions reached from
// its f by plain and deferred calls whose every call is the call of f for
// once alone or a plain or deferred call from the set.
func (o *Order) insideOnce(once uint32, fCalls map[uint32]bool, onceOf map[uint32][]uint32, entry map[uint32]bool) []uint32 {
	set := map[uint32]bool{}
	var work []uint32
	for m, objs := range onceOf {
		if slices.Equal(objs, []uint32{once}) {
			set[m] = true
			work = append(work, m)
		}
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, i := range o.cg.sites[m] {
			if o.cg.kind[i] == goCallKind {
				continue
			}
			for _, m2 := range o.callees(i) {
				if !set[m2] {
					set[m2] = true
					work = append(work, m2)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for m := range set {
			if o.enteredInside(m, set, fCalls, onceOf[m], once, entry) {
				continue
			}
			delete(set, m)
			changed = true
		}
	}
	inside := make([]uint32, 0, len(set))
	for m := range set {
		inside = append(inside, m)
	}
	slices.Sort(inside)
	return inside
}

// enteredInside reports whether every call of m is the call of f for Once
// object once alone, or a plain or deferred call from a function of set.
func (o *Order) enteredInside(m uint32, set, fCalls map[uint32]bool, onces []uint32, once uint32, entry map[uint32]bool) bool {
	sites := o.callSitesOf(m)
	if entry[m] || len(sites) == 0 {
		return false
	}
	for _, i := range sites {
		if fCalls[i] {
			if !slices.Equal(onces, []uint32{once}) {
				return false
			}
			continue
		}
		if o.cg.kind[i] == goCallKind || !set[o.f.Caller(i)] {
			return false
		}
	}
	return true
}

// onceReturns returns the Do events that return after every access of
// function m, or nil.
func (o *Order) onceReturns(m uint32) *bitset.BitSet { return o.once.returns[m] }

// sameOnceRun reports whether accesses a and b both lie inside the one run
// of the f of a sync.Once: one goroutine runs them, one after the other.
func (o *Order) sameOnceRun(a, b ssa.Instruction) bool {
	wa, wb := o.once.within[o.funcOf(a)], o.once.within[o.funcOf(b)]
	return slices.ContainsFunc(wa, func(x uint32) bool { return slices.Contains(wb, x) })
}

// sameOnceObject reports whether accesses a and b, if they touch one
// location, both run inside the one run of the f of one sync.Once: each
// runs inside the f of a Do on a field of the object whose location it
// touches (onceObjectOf: a literal given to that Do, or a method whose
// bound values are only given to such Dos), the same field for both, and
// no write that is not atomic may reset a Once those Dos use. The two
// objects are then one (onceDone says why), and so are the two Onces; f
// runs once for it (the Go memory model: a single call of f from
// once.Do(f) happens, for all Dos on the Once), in one goroutine, so the
// two run one after the other. The Once may stand for many concrete ones:
// the location names which.
func (o *Order) sameOnceObject(a, b ssa.Instruction) bool {
	ia, ok1 := o.onceObjectOf(a)
	ib, ok2 := o.onceObjectOf(b)
	if !ok1 || !ok2 || ia.field != ib.field {
		return false
	}
	_, _, ok := o.accessFrames(a, b)
	return ok && !o.onceReset(ia.dos) && !o.onceReset(ib.dos)
}

// isOnceMethod reports whether fn is a method of sync.Once.
func isOnceMethod(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" {
		return false
	}
	p, ok := recv.Type().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := p.Elem().(*types.Named)
	return ok && named.Obj().Name() == "Once"
}

// dynamicCall reports whether call calls a function value (not a builtin,
// not a method of an interface, not a function known statically).
func dynamicCall(call ssa.CallInstruction) bool {
	c := call.Common()
	if c.IsInvoke() || c.StaticCallee() != nil {
		return false
	}
	_, builtin := c.Value.(*ssa.Builtin)
	return !builtin
}
