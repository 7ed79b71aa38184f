package mhp

import (
	"go/constant"
	"go/token"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// countedOut reports whether access a happens before access b because the
// last goroutine out, which closes the door after every goroutine's atomic
// Add, hands the door to b:
//
//	waited := int32(n)
//	for i := 0; i < n; i++ {
//		go func() {
//			defer func() {
//				x++                                     // a
//				if atomic.AddInt32(&waited, -1) == 0 {
//					close(done)
//				}
//			}()
//		}()
//	}
//	<-done
//	x++                                                 // b
//
// Conditions: the door is a block entered only when an Add(&v, d) returns
// K, on a counter v with lastOut's conditions (one v; only atomic Adds of
// d's sign and loads use it after its one store); its initial value I is
// a constant (that store, or zero), every Add on v adds the constant d, and
// the Adds run at most (K-I)/d times in an execution, counted over the call
// graph from the roots, with loops counted by their constant trip counts
// (counting). a is in a function that makes a plain call of an Add on v
// that runs at most once per activation and does not run before a in it.
// b follows, on every path, a channel acquire (a receive, a select case,
// the closed branch of a receive) all of whose partners lie in the door.
//
// Why this holds: the Adds on v are read-modify-writes, one after another
// in the order of atomic operations, each synchronized before the next
// (it reads what the last one wrote). Reaching K takes (K-I)/d Adds, at
// least as many as can run, so when the door opens every Add that ever
// runs has run, and each before the one that opens it. The count is tight
// step by step (each activation counted made each counted call), so the
// activation that ran a also ran its Add, after a. So a happens before the
// door, the door's close or send before the acquire that b follows.
func (o *Order) countedOut(a, b ssa.Instruction) bool {
	if inRecover(a) {
		return false
	}
	for _, add := range o.counterAdds(a.Parent()) {
		if reachable(add.call, a) {
			continue
		}
		if o.doorBefore(add.cell, b) {
			return true
		}
	}
	return false
}

// counterAdd is a plain call of an atomic Add on a variable.
type counterAdd struct {
	call *ssa.Call
	cell *ssa.Alloc
}

// counterAdds returns, once per function, its plain calls of atomic Adds
// on variables that run at most once per activation.
func (o *Order) counterAdds(fn *ssa.Function) []counterAdd {
	if adds, ok := o.cellAdds[fn]; ok {
		return adds
	}
	var adds []counterAdd
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || o.repeats(blk) {
				continue
			}
			if _, ok := atomicAddSign(call); !ok {
				continue
			}
			if cell, ok := boundAlloc(call.Call.Args[0]); ok {
				adds = append(adds, counterAdd{call, cell})
			}
		}
	}
	o.cellAdds[fn] = adds
	return adds
}

// doorBefore reports whether b follows a channel acquire whose partners
// all lie in a door of counter cell that opens only after every Add on it
// (countedOut).
func (o *Order) doorBefore(cell *ssa.Alloc, b ssa.Instruction) bool {
	acq := o.acq(b)
	for r, ok := acq.NextSet(0); ok; r, ok = acq.NextSet(r + 1) {
		ev := &o.events[r]
		if !ev.acquire || len(ev.cands) == 0 || ev.kind != evChan && ev.kind != evCase && ev.kind != evClosed {
			continue
		}
		door := o.events[ev.cands[0]].instr.Block()
		for door != nil && !o.lastDoor(door, cell) { // the door, if any, dominates every partner
			door = door.Idom()
		}
		if door == nil {
			continue
		}
		inside := true
		for _, c := range ev.cands {
			if p := o.events[c].instr; p.Parent() != door.Parent() || !door.Dominates(p.Block()) {
				inside = false
				break
			}
		}
		if inside {
			return true
		}
	}
	return false
}

// lastDoor reports whether block b is a door on counter cell that opens
// only after every Add on it has run (countedOut's counting).
func (o *Order) lastDoor(b *ssa.BasicBlock, cell *ssa.Alloc) bool {
	add, k, uses, ok := o.door(b)
	if !ok || uses.cell != cell || len(uses.stores) > 1 {
		return false
	}
	start := constant.MakeInt64(0)
	if len(uses.stores) == 1 {
		c, ok := uses.stores[0].Val.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
			return false
		}
		start = c.Value
	}
	d := add.Call.Args[1].(*ssa.Const).Value
	span := constant.BinaryOp(k, token.SUB, start)
	if constant.Sign(span) != constant.Sign(d) {
		return false
	}
	needed, exact := constant.Int64Val(constant.BinaryOp(span, token.QUO_ASSIGN, d))
	if !exact || constant.Sign(constant.BinaryOp(span, token.REM, d)) != 0 {
		return false
	}
	runs := int64(0)
	for _, u := range uses.adds {
		delta, ok := u.Common().Args[1].(*ssa.Const)
		if !ok || delta.Value == nil || !constant.Compare(delta.Value, token.EQL, d) || o.repeats(u.Block()) {
			return false
		}
		n, ok := o.runBound(u.Parent(), needed+1)
		if !ok {
			return false
		}
		runs += n
		if runs > needed {
			return false
		}
	}
	return true
}

// runBound bounds how many times fn runs in an execution, over the call
// graph: once if it is a root or initializer, plus, for each call site
// that may call it, the runs of the caller times the runs of the site per
// activation (1, or the trip count of the counting loop it is in). Past
// limit, or for a function in a cycle of calls, inside a loop with no
// constant trip count, or with no caller seen, it gives up.
func (o *Order) runBound(fn *ssa.Function, limit int64) (int64, bool) {
	type result struct {
		n  int64
		ok bool
	}
	visiting := map[*ssa.Function]bool{}
	memo := map[*ssa.Function]result{} // a failure for a cycle through the chain above only makes it coarser
	var bound, boundOnce func(fn *ssa.Function) (int64, bool)
	// Termination: a function on the current chain of calls is refused
	// (visiting), so the recursion follows a chain of distinct functions,
	// and each function's bound is computed once (memo).
	bound = func(fn *ssa.Function) (int64, bool) {
		if r, ok := memo[fn]; ok {
			return r.n, r.ok
		}
		n, ok := boundOnce(fn)
		memo[fn] = result{n, ok}
		return n, ok
	}
	boundOnce = func(fn *ssa.Function) (int64, bool) {
		m, ok := o.f.FuncID(fn)
		if !ok || visiting[fn] {
			return 0, false
		}
		visiting[fn] = true
		defer delete(visiting, fn)
		n := int64(0)
		if o.isEntry(m) {
			n = 1
		}
		for _, i := range o.callSitesOf(m) {
			call := o.f.Call(i)
			per := int64(1)
			if o.repeats(call.Block()) {
				if per, ok = o.tripCount(call.Block()); !ok || per > limit {
					return 0, false
				}
			}
			callerRuns, ok := bound(call.Parent())
			if !ok {
				return 0, false
			}
			n += callerRuns * per
			if n > limit {
				return 0, false
			}
		}
		return n, n > 0
	}
	return bound(fn)
}

// isEntry reports whether m is a root or an initializer (relation entry).
func (o *Order) isEntry(m uint32) bool {
	if o.entrySet == nil {
		o.entrySet = map[uint32]bool{}
		for _, t := range o.f.Tuples("entry") {
			o.entrySet[t[0]] = true
		}
	}
	return o.entrySet[m]
}

// tripCount bounds how many times block b runs per activation of its
// function when every cycle through b passes the header of one counting
// loop (for i := Start; i < Bound; i += Step, constants) that is entered
// at most once per activation.
func (o *Order) tripCount(b *ssa.BasicBlock) (int64, bool) {
	for _, h := range b.Parent().Blocks {
		l := o.f.Loop(h)
		if l == nil || l.Start == nil || l.Bound == nil || !l.Increases() || !h.Dominates(b) || reachesAgain(b, h) {
			continue
		}
		for _, p := range h.Preds {
			if !h.Dominates(p) && o.repeats(p) {
				return 0, false // the loop may be entered again
			}
		}
		return loopTrips(l)
	}
	return 0, false
}

// loopTrips returns how many times a counting loop's test holds from its
// start: the values Start, Start+Step, ... below Bound (or up to it).
func loopTrips(l *pointsto.CountingLoop) (int64, bool) {
	span := constant.BinaryOp(l.Bound, token.SUB, l.Start)
	if l.Inclusive {
		span = constant.BinaryOp(span, token.ADD, constant.MakeInt64(1))
	}
	if constant.Sign(span) <= 0 {
		return 0, true
	}
	span = constant.BinaryOp(span, token.ADD, constant.BinaryOp(l.Step, token.SUB, constant.MakeInt64(1)))
	return constant.Int64Val(constant.BinaryOp(span, token.QUO_ASSIGN, l.Step))
}
