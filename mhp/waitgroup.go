package mhp

import (
	"go/constant"
	"go/token"
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// ownWaitGroup reports whether access a happens before access b through a
// WaitGroup that lies in the object both reach their location through, as
// a singleflight-style call does:
//
//	c := new(call)
//	c.wg.Add(1)        // before c can reach another goroutine
//	m[key] = c
//	g.doCall(c, fn)    // or go g.doCall(c, fn), or the body inline
//
//	func (g *group) doCall(c *call, fn func() int) {
//		defer func() { c.wg.Done() }()
//		func() { c.val = fn() }()   // a
//	}
//
//	c.wg.Wait()        // in a caller that found c
//	return c.val       // b
//
// Conditions: a reaches its location through fields of a root that,
// lifted to the activation a runs inside (lift), is owned (owners): an
// allocation of that activation, or a parameter bound to an allocation
// handed to that activation alone. At each owning allocation p, an Add of
// a constant greater than zero on the WaitGroup field of p runs after the
// allocation and before any use of p that may hand it on (anything but
// field addresses, loads, stores into it, and WaitGroup calls on it).
// Every Done that may use that WaitGroup (the Adds' abstract objects), and
// every Add that may count down, is a call on that field of the same root
// of the same activation (lifted alike), after a there (doneAfter). b
// reaches its location through the same fields path from root q, a value
// fixed for its function's activation, after a Wait on that field of q on
// every path.
//
// Why this holds: if a and b touch one location, the object is q, and it
// is a's root in one activation only, made by one run of p's block. Its
// Add ran before any goroutine could get it; the goroutine of b got it
// after (through a publication that happens before, or that races itself
// and is reported), so the Add happens before b's Wait. The Wait returns
// when the counter is zero again, which needs a Done on this WaitGroup
// (the WaitGroup rule of its documentation: a Done synchronizes before
// the return of the Wait it unblocks); every such Done is in a's
// activation, after a.
func (o *Order) ownWaitGroup(a, b ssa.Instruction) bool {
	q, ok := accessRoot(b)
	if !ok || !o.fixedInActivation(q) {
		return false
	}
	fa, _, ok := o.accessFrames(a, b)
	if !ok {
		return false
	}
	field := -1
	var objs []uint32
	for _, w := range o.owners(fa.at.Parent(), fa.root) {
		add, f, ok := o.countingAdd(w.alloc)
		if !ok || field >= 0 && f != field {
			return false
		}
		field = f
		objs = append(objs, o.syncObjs[o.events[add].id]...)
	}
	return field >= 0 && o.donesAfter(fa, field, objs) && o.waitedBefore(b, q, field)
}

// countingAdd returns an Add of a constant greater than zero on a
// WaitGroup field of heap allocation p, in its block after it and before
// any use that may hand p on (countedBeforeShared), and that field.
func (o *Order) countingAdd(p *ssa.Alloc) (uint32, int, bool) {
	for _, add := range o.fnEvents(p.Parent(), evAdd) {
		instr := o.events[add].instr
		if base, field, ok := waitGroupField(instr); ok && base == p && positiveDelta(instr) && countedBeforeShared(p, instr) {
			return add, field, true
		}
	}
	return 0, 0, false
}

// donesAfter reports whether every Done that may use one of the WaitGroup
// objects objs, and every Add on them that may count down (but the one
// inside WaitGroup.Done, whose calls are the Done events), is a call on
// field of the root of frame fa in its activation, that runs after fa's
// access there; and there is one.
func (o *Order) donesAfter(fa frame, field int, objs []uint32) bool {
	n := 0
	for _, ev := range o.events {
		if ev.kind != evDone && (ev.kind != evAdd || positiveDelta(ev.instr) || isDoneMethod(ev.instr.Parent())) ||
			!slices.ContainsFunc(o.syncObjs[ev.id], func(x uint32) bool { return slices.Contains(objs, x) }) {
			continue
		}
		base, f, ok := waitGroupField(ev.instr)
		if !ok || f != field {
			return false
		}
		fd := lift(ev.instr, base)
		if fd.root != fa.root || fd.at.Parent() != fa.at.Parent() || !runsAfter(fa.chain, fd.chain) {
			return false
		}
		n++
	}
	return n > 0
}

// runsAfter reports whether, in one activation of the function both
// chains (of lift) end in, the instruction at the start of chain y runs
// after the one at the start of chain x, if both run: at the first level
// where they differ (both in one function there), y is a deferred call and
// x is not (deferred calls run after the body), or neither is deferred
// and x cannot run after y.
func runsAfter(x, y []ssa.Instruction) bool {
	i, j := len(x)-1, len(y)-1
	for i >= 0 && j >= 0 && x[i] == y[j] {
		i, j = i-1, j-1
	}
	if i < 0 || j < 0 {
		return false
	}
	_, xDefer := x[i].(*ssa.Defer)
	_, yDefer := y[j].(*ssa.Defer)
	if xDefer || inRecover(x[i]) || inRecover(y[j]) {
		return false
	}
	return yDefer || !mayFollow(x[i], y[j])
}

// waitedBefore reports whether a Wait on field of q runs before b on every
// path of b's function.
func (o *Order) waitedBefore(b ssa.Instruction, q ssa.Value, field int) bool {
	for _, w := range o.fnEvents(b.Parent(), evWait) {
		instr := o.events[w].instr
		base, f, ok := waitGroupField(instr)
		if ok && base == q && f == field && pointsto.RunsBefore(instr, b) {
			return true
		}
	}
	return false
}

// fnEvents returns the events of one kind in function fn.
func (o *Order) fnEvents(fn *ssa.Function, kind eventKind) []uint32 {
	m, ok := o.f.FuncID(fn)
	if !ok {
		return nil
	}
	var evs []uint32
	for id, ev := range o.events {
		if ev.kind == kind && ev.fn == m {
			evs = append(evs, uint32(id))
		}
	}
	return evs
}

// accessRoot returns the pointer whose object holds the location that
// load or store instr accesses, through field addresses only.
func accessRoot(instr ssa.Instruction) (ssa.Value, bool) {
	v := pointsto.LoadStoreAddr(instr)
	fa, ok := v.(*ssa.FieldAddr)
	for ok {
		v = fa.X
		fa, ok = v.(*ssa.FieldAddr)
	}
	return v, v != nil
}

// waitGroupField returns x and the field index when instr calls a
// WaitGroup method on &x.f.
func waitGroupField(instr ssa.Instruction) (ssa.Value, int, bool) {
	call, ok := instr.(ssa.CallInstruction)
	if !ok || call.Common().StaticCallee() == nil || len(call.Common().Args) == 0 {
		return nil, 0, false
	}
	fa, ok := call.Common().Args[0].(*ssa.FieldAddr)
	if !ok {
		return nil, 0, false
	}
	return fa.X, fa.Field, true
}

// positiveDelta reports whether WaitGroup call instr is Add of a constant
// greater than zero.
func positiveDelta(instr ssa.Instruction) bool {
	args := instr.(ssa.CallInstruction).Common().Args
	if len(args) != 2 {
		return false
	}
	k, ok := args[1].(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Int && constant.Sign(k.Value) > 0
}

// countedBeforeShared reports whether add, in the block of alloc and after
// it, runs before every use of alloc's object that may hand it on: each
// run of the block allocates anew and then adds, and any other block that
// uses the object runs after the whole block.
func countedBeforeShared(alloc *ssa.Alloc, add ssa.Instruction) bool {
	b := alloc.Block()
	if add.Block() != b || !pointsto.RunsBefore(alloc, add) {
		return false
	}
	pos := map[ssa.Instruction]int{}
	for k, instr := range b.Instrs {
		pos[instr] = k
	}
	var sharedAfter func(v ssa.Value) bool
	sharedAfter = func(v ssa.Value) bool {
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.FieldAddr:
				if !sharedAfter(r) {
					return false
				}
				continue
			case *ssa.UnOp:
				if r.Op == token.MUL {
					continue
				}
			case *ssa.Store:
				if r.Addr == v && r.Val != v {
					continue
				}
			case *ssa.DebugRef:
				continue
			case ssa.CallInstruction:
				if _, _, ok := waitGroupField(r); ok && r.Common().Args[0] == v && isWaitGroupMethod(r) {
					continue
				}
			}
			if ref.Block() == b.Parent().Recover || ref.Block() == b && pos[ref] < pos[add] {
				return false
			}
		}
		return true
	}
	return sharedAfter(alloc)
}

// isDoneMethod reports whether fn is sync.WaitGroup's Done.
func isDoneMethod(fn *ssa.Function) bool {
	return fn.Name() == "Done" && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Signature.Recv() != nil &&
		fn.Signature.Recv().Type().String() == "*sync.WaitGroup"
}

// isWaitGroupMethod reports whether call calls a method of sync.WaitGroup.
func isWaitGroupMethod(call ssa.CallInstruction) bool {
	fn := call.Common().StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Signature.Recv() != nil &&
		fn.Signature.Recv().Type().String() == "*sync.WaitGroup"
}
