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
		fd := o.lift(ev.instr, base)
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
	_, ok := o.waitBefore(b, q, field)
	return ok
}

// waitBefore returns a Wait event on field of q that runs before b on
// every path of b's function.
func (o *Order) waitBefore(b ssa.Instruction, q ssa.Value, field int) (uint32, bool) {
	for _, w := range o.fnEvents(b.Parent(), evWait) {
		instr := o.events[w].instr
		base, f, ok := waitGroupField(instr)
		// Not b itself: a Wait is an access of its WaitGroup too.
		if ok && base == q && f == field && instr != b && pointsto.RunsBefore(instr, b) {
			return w, true
		}
	}
	return 0, false
}

// countedGoroutine reports whether access a, run by goroutine ga, happens
// before access b through a WaitGroup in the object both reach their
// location through, as in errgroup:
//
//	func (g *Group) Go(f func() error) {
//		g.wg.Add(1)
//		go func() {
//			defer g.done()         // g.wg.Done()
//			g.errOnce.Do(func() { g.err = f() })   // a
//		}()
//	}
//
//	func (g *Group) Wait() error {
//		g.wg.Wait()
//		return g.err           // b
//	}
//
// Conditions: ga is started only by go statement S of a function literal
// K made once, inside which a runs (lift), and a's root is, through S's
// binding, value r of S's function; right before S in its block, with no
// call between, an Add of a constant greater than zero on field f of r;
// K defers, before a, a Done on field f of its root, directly or through
// a static call of a function that calls Done on that field of its
// parameter on every path to its return; b reaches its location from q,
// fixed in its activation, after a Wait on field f of q (waitBefore), run
// by gb, a goroutine with one instance that alone runs S, and no run of S
// can come between that Wait and b (mayRunBetween).
//
// Why this holds: if a and b touch one location, r and q are one object
// in a's instance of ga and in b's run, and the Add, the Done and the Wait
// are on its one WaitGroup. gb runs the run of S that started a's
// instance and the Wait before b, one after the other. If S ran first, the
// Add right before it, which counts a's instance, happens before the Wait,
// and the Wait returns only when that count is answered, by the Done a's
// instance runs after a (the WaitGroup rule of its documentation, assumed
// by someDoneAfter too: the Done that answers an Add before a go statement
// is the one its goroutine runs). If the Wait ran first, S ran after b
// too, since no run of S comes between them, and a's instance starts
// after b.
// The abstract WaitGroup may stand for many concrete ones: the location
// names which, so no Unique object is needed.
func (o *Order) countedGoroutine(a ssa.Instruction, ga uint32, b ssa.Instruction, gb uint32) bool {
	// What reads the goroutines alone first: most pairs fail there.
	gr := &o.gs.List[ga]
	site, ok := o.f.Call(gr.Site).(*ssa.Go)
	if gr.Kind != GoGoroutine || !ok || !slices.Equal(gr.Parents, []uint32{gb}) || !o.gs.List[gb].Single || len(o.starts[ga]) == 0 {
		return false
	}
	for _, ev := range o.starts[ga] {
		if o.events[ev].instr != ssa.Instruction(site) {
			return false
		}
	}
	q, ok2 := accessRoot(b)
	if !ok2 || !o.fixedInActivation(q) {
		return false
	}
	fa, _, ok := o.accessFrames(a, b)
	if !ok {
		return false
	}
	k := fa.at.Parent()
	if k.Parent() == nil || o.madeOnce(k) != site.Call.Value || onlyUse(site.Call.Value) != ssa.Instruction(site) {
		return false
	}
	r, ok := bound(fa.root, site.Call.Value, site)
	if !ok || r.deref {
		return false
	}
	field, ok := addedRightBefore(site, r)
	if !ok || !deferredDone(k, fa, field) {
		return false
	}
	wait, ok := o.waitBefore(b, q, field)
	if !ok {
		return false
	}
	return !o.mayRunBetween(o.events[wait].instr, b, o.starts[ga])
}

// mayRunBetween reports whether one of the events evs may run after w and
// before b, in b's function, where w runs before b on every path: in a
// call on a path from w to b that does not run w again, or one whose
// callees we do not know.
func (o *Order) mayRunBetween(w, b ssa.Instruction, evs []uint32) bool {
	wb, bb := w.Block(), b.Block()
	for _, blk := range b.Parent().Blocks {
		var instrs []ssa.Instruction
		switch {
		case blk == wb && blk == bb:
			instrs = blk.Instrs[slices.Index(blk.Instrs, w)+1 : slices.Index(blk.Instrs, b)]
		case blk == wb:
			instrs = blk.Instrs[slices.Index(blk.Instrs, w)+1:]
		case blk == bb:
			instrs = blk.Instrs[:slices.Index(blk.Instrs, b)]
		case pointsto.ReachesAvoiding(wb, blk, nil) && pointsto.ReachesAvoiding(blk, bb, wb):
			instrs = blk.Instrs
		}
		if blk != wb && blk == bb && reachesAgain(bb, wb) {
			instrs = blk.Instrs // b's block runs again before b, without w
		}
		for _, instr := range instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && o.callMayRun(call, evs) {
				return true
			}
		}
	}
	return false
}

// callMayRun reports whether call may run one of the events evs, or calls
// functions we do not know.
func (o *Order) callMayRun(call ssa.CallInstruction, evs []uint32) bool {
	i, ok := o.cg.callOf[call]
	if !ok {
		return true
	}
	for _, m := range o.callees(i) {
		if slices.ContainsFunc(evs, func(ev uint32) bool { return o.mayExec[m].Test(uint(ev)) }) {
			return true
		}
	}
	return false
}

// reachesAgain reports whether a path of one or more edges leads from
// block b back to itself without entering avoid.
func reachesAgain(b, avoid *ssa.BasicBlock) bool {
	for _, s := range b.Succs {
		if s != avoid && pointsto.ReachesAvoiding(s, b, avoid) {
			return true
		}
	}
	return false
}

// addedRightBefore returns field f when an Add of a constant greater than
// zero on field f of r runs right before go statement site in its block,
// with no call between them.
func addedRightBefore(site *ssa.Go, r ref) (int, bool) {
	instrs := site.Block().Instrs
	k := slices.Index(instrs, ssa.Instruction(site))
	for k--; k >= 0; k-- {
		call, ok := instrs[k].(ssa.CallInstruction)
		if !ok {
			continue
		}
		base, field, ok := waitGroupField(call)
		if ok && isWaitGroupMethod(call) && positiveDelta(call) && settled(base, call) == r {
			return field, true
		}
		return 0, false
	}
	return 0, false
}

// deferredDone reports whether goroutine function k defers, before the
// instruction of frame fa in it, a Done on field of fa's root: WaitGroup's
// Done itself, or a static call of a function that calls Done on that
// field of the parameter it passes the root to, on every path to return.
func deferredDone(k *ssa.Function, fa frame, field int) bool {
	for _, b := range k.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok || !pointsto.RunsBefore(d, fa.at) {
				continue
			}
			callee := d.Call.StaticCallee()
			if callee == nil {
				continue
			}
			if base, f, ok := waitGroupField(d); ok && isDoneMethod(callee) && f == field && settled(base, d) == fa.root {
				return true
			}
			for z, arg := range d.Call.Args {
				if settled(arg, d) == fa.root && z < len(callee.Params) && callsOnEveryReturn(callee, callee.Params[z], field, isDoneMethod) {
					return true
				}
			}
		}
	}
	return false
}

// callsOnEveryReturn reports whether fn calls a function that is (Done or
// Wait) on field of its parameter p before every return, and cannot
// resume after a panic.
func callsOnEveryReturn(fn *ssa.Function, p *ssa.Parameter, field int, is func(*ssa.Function) bool) bool {
	if fn.Recover != nil || len(fn.Blocks) == 0 {
		return false
	}
	var calls []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if base, f, ok := waitGroupField(call); ok && base == p && f == field && is(call.Call.StaticCallee()) {
				calls = append(calls, call)
			}
		}
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if ok && !slices.ContainsFunc(calls, func(d ssa.Instruction) bool { return pointsto.RunsBefore(d, ret) }) {
			return false
		}
	}
	return len(calls) > 0
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
	common := instr.(ssa.CallInstruction).Common()
	if fn := common.StaticCallee(); fn != nil && fn.Name() == "Go" && isWaitGroupFunc(fn) {
		return true // WaitGroup.Go adds 1
	}
	args := common.Args
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
	return fn != nil && fn.Name() == "Done" && isWaitGroupFunc(fn)
}

// isWaitGroupMethod reports whether call calls a method of sync.WaitGroup.
func isWaitGroupMethod(call ssa.CallInstruction) bool {
	return isWaitGroupFunc(call.Common().StaticCallee())
}

// isWaitGroupFunc reports whether fn is a method of sync.WaitGroup.
func isWaitGroupFunc(fn *ssa.Function) bool {
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Signature.Recv() != nil &&
		fn.Signature.Recv().Type().String() == "*sync.WaitGroup"
}
