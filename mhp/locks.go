package mhp

import (
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// lockEvents adds an event at each call that may lock or unlock a mutex (a
// sync.Mutex, or a sync.RWMutex's write lock), with the mutexes it may use:
// every Unlock, to be the partners of the Locks that lockAcquires makes
// acquires, and the Locks made by plain calls, which acq follows.
func (o *Order) lockEvents() {
	f := o.f
	o.mutexes, o.lockFns, o.unmodeled = map[uint32][]uint32{}, map[uint32]bool{}, map[uint32]bool{}
	methods := mutexMethods(f)
	for k := 0; k+1 < len(methods); k += 2 {
		if methods[k+1] == pointsto.LockLock {
			o.lockFns[methods[k]] = true
		}
	}
	type call struct{ site, z uint32 }
	objs := map[call][]uint32{}
	var calls []call
	for t := range o.gs.Tuples("lockCall") {
		c := call{t[0], t[2]}
		if objs[c] == nil {
			calls = append(calls, c)
		}
		objs[c] = append(objs[c], t[1])
	}
	for _, c := range calls {
		kind := evLock
		if c.z == pointsto.LockUnlock {
			kind = evUnlock
		}
		switch o.cg.kind[c.site] {
		case goCallKind:
			// Runs in a goroutine of its own: no event places it.
			if kind == evUnlock {
				for _, m := range objs[c] {
					o.unmodeled[m] = true
				}
			}
			continue
		case deferCallKind:
			if kind == evLock {
				continue // neither the earlier Lock nor the waiting one of lockAcquires
			}
		}
		ev := o.addEvent(event{kind: kind, instr: f.Call(c.site), fn: f.Caller(c.site), id: c.site})
		slices.Sort(objs[c])
		o.mutexes[ev] = slices.Compact(objs[c])
	}
}

// lockAcquires makes acquires of the Locks that return only after an
// Unlock, each with the Unlocks that may use its mutex as partners.
//
// The Go memory model: for a mutex l and n < m, call n of l.Unlock is
// synchronized before call m of l.Lock returns (a sync.RWMutex's Lock and
// Unlock included). If a call L0 of Lock on l happens before a call p of
// Lock on the same l, p is call m >= 2, so Unlock call 1 of l happens
// before p returns. That Unlock is a run of one of p's partners (every
// call that may unlock l is an event, below), and it cannot be one of the
// partners that run after p. So when all the other partners happen after
// an access, so does p's return: the rule of acquires (after.go).
//
// L0 happens before p when, with both surely calling Lock:
//
//   - they use the same pointer: the same value, fixed for the activation
//     of their function (a parameter, a free variable, or defined outside
//     any loop), and L0 runs before p in that activation on every path; or
//   - they use the same object that exists once (Goroutines.Unique), and
//     L0 completed before p on every path of p's goroutine instance, or
//     before every go statement that may start a goroutine that runs p.
//
// Left out, as the rule needs every way l becomes unlocked to be an
// Unlock event: a mutex that a go statement may unlock, and one that a
// write that is not atomic may touch (mhp.dl's stateWritten).
func (o *Order) lockAcquires(unique *bitset.BitSet) {
	for t := range o.gs.Tuples("stateWritten") {
		o.unmodeled[t[0]] = true
	}
	var locks, unlocks []uint32
	for id, ev := range o.events {
		switch ev.kind {
		case evLock:
			if o.surelyLocks(uint32(id)) {
				locks = append(locks, uint32(id))
			}
		case evUnlock:
			unlocks = append(unlocks, uint32(id))
		}
	}
	for _, p := range locks {
		if slices.ContainsFunc(o.mutexes[p], func(m uint32) bool { return o.unmodeled[m] }) ||
			!slices.ContainsFunc(locks, func(l0 uint32) bool { return o.lockedBefore(l0, p, unique) }) {
			continue
		}
		var cands []uint32
		for _, u := range unlocks {
			if slices.ContainsFunc(o.mutexes[u], func(m uint32) bool { return slices.Contains(o.mutexes[p], m) }) {
				cands = append(cands, u)
			}
		}
		if len(cands) > 0 {
			o.events[p].acquire = true
			o.events[p].cands = cands
		}
	}
}

// surelyLocks reports whether Lock event id calls Lock, whatever it calls.
func (o *Order) surelyLocks(id uint32) bool {
	callees := o.callees(o.events[id].id)
	return len(callees) > 0 && !slices.ContainsFunc(callees, func(m uint32) bool { return !o.lockFns[m] })
}

// lockedBefore reports whether Lock event l0 happens before Lock event p
// on the same mutex (see lockAcquires).
func (o *Order) lockedBefore(l0, p uint32, unique *bitset.BitSet) bool {
	a, b := o.events[l0].instr, o.events[p].instr
	if l0 != p && a.Parent() == b.Parent() {
		v := lockReceiver(a)
		if v != nil && v == lockReceiver(b) && o.fixedInActivation(v) && pointsto.RunsBefore(a, b) {
			return true
		}
	}
	objs := o.mutexes[p]
	if len(objs) != 1 || !unique.Test(uint(objs[0])) || !slices.Equal(o.mutexes[l0], objs) {
		return false
	}
	if o.acq(b).Test(uint(l0)) {
		return true
	}
	threads := o.gs.Of(o.events[p].fn)
	for _, t := range threads {
		if len(o.starts[t]) == 0 {
			return false // a root, or started from where we do not see
		}
		for _, ev := range o.starts[t] {
			if !o.acq(o.events[ev].instr).Test(uint(l0)) {
				return false
			}
		}
	}
	return len(threads) > 0
}

// lockReceiver returns the value a call of Lock locks, or nil if it is
// not an argument of the call (a method value).
func lockReceiver(instr ssa.Instruction) ssa.Value {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	if call.Call.IsInvoke() {
		return call.Call.Value
	}
	if call.Call.StaticCallee() != nil && len(call.Call.Args) > 0 {
		return call.Call.Args[0]
	}
	return nil
}

// fixedInActivation reports whether v holds one value for a whole
// activation of its function.
func (o *Order) fixedInActivation(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global, *ssa.Const:
		return true
	case ssa.Instruction:
		return v.Block() != nil && !o.repeats(v.Block())
	}
	return false
}
