package mhp

import (
	"slices"

	"github.com/bits-and-blooms/bitset"
	"golang.org/x/tools/go/ssa"
)

// CallOrder answers CallOrdered for the accesses b run by goroutine gb
// that give it the same answers: what follows b, and the acquires before
// it, are computed once for the many calls and goroutines asked about.
type CallOrder struct {
	o      *Order
	b      ssa.Instruction // the first b asked for with these answers
	gb     uint32
	afterB *afterSet
	acqB   *bitset.BitSet
}

// callOrderKey is what CallOrdered reads of b in gb: after(b, gb) (one
// set per content, after) and acq(b)'s words.
type callOrderKey struct {
	gb    uint32
	after *afterSet
	acq   string
}

// CallOrder returns the CallOrder of access b run by goroutine gb: one
// per gb, after(b, gb) and acq(b), so that accesses with equal answers get
// the same CallOrder and callers may keep answers by it.
func (o *Order) CallOrder(b ssa.Instruction, gb uint32) *CallOrder {
	afterB, acqB := o.after(b, gb), o.acq(b)
	key := callOrderKey{gb, afterB, string(appendWords(nil, acqB))}
	if co, ok := o.callOrders[key]; ok {
		return co
	}
	if o.callOrders == nil {
		o.callOrders = map[callOrderKey]*CallOrder{}
	}
	co := &CallOrder{o: o, b: b, gb: gb, afterB: afterB, acqB: acqB}
	o.callOrders[key] = co
	return co
}

// CallOrdered reports whether, whenever goroutine ga makes the plain call
// call and goroutine gb runs b, everything ga runs inside that call is
// ordered with b: b happens before the call starts, or the point where
// the call returns happens before b. Package races uses it to prove an
// access per call path: a helper that one caller runs before a go
// statement and another under a lock.
//
// Sound: inside the call, ga runs after the call starts, so what happens
// before the call's start (an acquire completed before it on every path,
// acq, or the whole of ga) happens before each of its instructions. For
// the return, what happens after the instruction that follows the call is
// computed with may at that instruction, which holds every event the
// caller may have run before the call and every event the callees may
// run (mayExec): an event after that point by program order can then run
// neither before the call nor inside it, so it follows each instruction
// of the call in ga's instance, even one after which the callee panics
// and never returns there; the goroutines and acquires that follow from
// such events follow them. A deferred call runs at its caller's exit, not
// at the defer statement, and a go statement's function in another
// goroutine: neither is a plain call, and neither is ordered here. The
// caller must be analyzed, so that may sees the events it runs.
func (co *CallOrder) CallOrdered(call ssa.CallInstruction, ga uint32) bool {
	o, b, gb := co.o, co.b, co.gb
	c, ok := call.(*ssa.Call)
	if !ok || !o.f.Analyzed(o.funcOf(c)) {
		return false
	}
	if !o.gs.SameProgram(ga, gb) {
		return true // separate processes
	}
	if co.afterB.W.Test(uint(ga)) || o.acq(c).IntersectionCardinality(co.afterB.A) > 0 {
		return true
	}
	// b before the call starts, or b's goroutine instance started after
	// the call, which starts none (groupJoined). groupJoined orders gb's
	// whole instance and reads b not at all: co.b may be any b of co.
	if o.groupJoined(b, gb, c, ga) && !o.callMayRun(c, o.starts[gb]) {
		return true
	}
	instrs := c.Block().Instrs
	k := slices.Index(instrs, ssa.Instruction(c))
	if k < 0 || k+1 >= len(instrs) {
		return false // a call always has a block terminator after it
	}
	s := o.after(instrs[k+1], ga)
	return s.W.Test(uint(gb)) || co.acqB.IntersectionCardinality(s.A) > 0
}
