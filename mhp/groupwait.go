package mhp

import (
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// groupJoined reports whether x, run by goroutine gx, happens before p,
// run by gp, or gx's instance starts after p, through a WaitGroup in an
// object that a helper's go statement counts and another helper waits on,
// as errgroup's Go and Wait do for any code that uses them:
//
//	func (g *Group) Go(f func()) {
//		g.wg.Add(1)
//		go func() {
//			defer g.done()          // g.wg.Done(), last
//			f()                     // x
//		}()
//	}
//	func (g *Group) Wait() { g.wg.Wait() }
//
//	func search() {                 // W
//		g := new(Group)
//		for i := range n {
//			g.Go(func() { results[i] = ... })
//		}
//		g.Wait()
//	}
//	search(); use(results)          // p
//
// Conditions: gx is started only by go statement S, only in gp, which is
// single; right before S in its block, with no call between, an Add of a
// constant greater than zero on field f of parameter r of S's function
// Mg; the function literal S starts has one defer statement, in its
// entry block, of WaitGroup.Done on field f of r (through the literal's
// binding), or of a static call, on r, of a function D that calls Done on
// field f of its parameter on every path to return, with no defer, no
// recover and nothing after a Done but its return. Every call of Mg that
// gp may run into the context S runs in for gx (other contexts start
// other goroutines) is a plain static call in one function W, which runs
// at most once in an execution, passing one value v fixed in W's
// activation as r. A call
// in W waits on field f of v (Wait itself on &v.f, or a static call, on
// v, of a function that calls Wait on field f of its parameter on every
// path to return); p is after such a Wait in W with no call of Mg between
// them (mayRunBetween over S's starts), or W has no recover, each of its
// returns is after such a Wait with no call of Mg between them, and p is
// after a call of W in its function with no call of Mg between them.
//
// Why this holds (go.dev/ref/mem: a Done synchronizes before the return of
// the Wait it unblocks; the WaitGroup rule of its documentation, assumed
// by someDoneAfter too: the Done that answers an Add before a go statement
// is the one its goroutine runs). W runs once, so every instance of gx is
// started by S in a call of Mg from W's one activation, after an Add on
// v's WaitGroup. If S ran before the Wait that precedes p, that Add came
// before the Wait in gp's program order, and the Wait returns only once
// the instance's Done ran; x runs in the instance before that Done, which
// its deferred call runs last. Otherwise S ran after p, as no call of Mg
// comes between the Wait and p, and the instance starts after p.
func (o *Order) groupJoined(x ssa.Instruction, gx uint32, p ssa.Instruction, gp uint32) bool {
	gr := &o.gs.List[gx]
	site, ok := o.f.Call(gr.Site).(*ssa.Go)
	if gr.Kind != GoGoroutine || !ok || !slices.Equal(gr.Parents, []uint32{gp}) || !o.gs.List[gp].Single || len(o.starts[gx]) == 0 {
		return false
	}
	for _, ev := range o.starts[gx] {
		if o.events[ev].instr != ssa.Instruction(site) {
			return false
		}
	}
	mg := site.Parent()
	for z, r := range mg.Params {
		field, ok := addedRightBefore(site, ref{v: r})
		if ok && deferredLastDone(site, r, field) {
			return o.waitedInCaller(mg, gr.Ctx, z, field, p, gp, o.starts[gx])
		}
	}
	return false
}

// deferredLastDone reports whether the function literal that go statement
// site starts defers, once and in its entry block, a Done on field of r
// (r a parameter of site's function, through the literal's binding) that
// runs last in the goroutine: WaitGroup's Done itself, or a static call
// of a function that calls Done on that field of its parameter on every
// path to return, then returns.
func deferredLastDone(site *ssa.Go, r *ssa.Parameter, field int) bool {
	k, ok := site.Call.Value.(*ssa.MakeClosure)
	if !ok || onlyUse(k) != ssa.Instruction(site) {
		return false
	}
	fn := k.Fn.(*ssa.Function)
	var defers []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				defers = append(defers, d)
			}
		}
	}
	if len(defers) != 1 || defers[0].Block() != fn.Blocks[0] {
		return false
	}
	d := defers[0]
	isR := func(v ssa.Value) bool {
		b, ok := bound(settled(v, d), k, site)
		return ok && !b.deref && b.v == ssa.Value(r)
	}
	callee := d.Call.StaticCallee()
	if callee == nil {
		return false
	}
	if base, f, ok := waitGroupField(d); ok && isDoneMethod(callee) {
		return f == field && isR(base)
	}
	for z, arg := range d.Call.Args {
		if z < len(callee.Params) && isR(arg) && doneLast(callee, callee.Params[z], field) {
			return true
		}
	}
	return false
}

// doneLast reports whether fn calls Done on field of its parameter p on
// every path to return, defers nothing, and returns right after each such
// Done: nothing it runs comes after the Done.
func doneLast(fn *ssa.Function, p *ssa.Parameter, field int) bool {
	if !callsOnEveryReturn(fn, p, field, isDoneMethod) {
		return false
	}
	for _, b := range fn.Blocks {
		for k, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Defer); ok {
				return false
			}
			call, ok := instr.(*ssa.Call)
			if !ok || !isDoneMethod(call.Call.StaticCallee()) {
				continue
			}
			for _, next := range b.Instrs[k+1:] {
				if _, ok := next.(*ssa.DebugRef); ok {
					continue
				}
				if _, ok := next.(*ssa.Return); !ok {
					return false
				}
				break
			}
		}
	}
	return true
}

// waitedInCaller reports whether p, in goroutine gp, follows a Wait on
// field of the value that the one function W calling mg in context ctx in
// gp passes as mg's parameter z, with no call of mg between (starts are
// mg's go events): groupJoined's conditions on W and p. A call of mg
// only in other contexts starts other goroutines.
func (o *Order) waitedInCaller(mg *ssa.Function, ctx pointsto.Ctx, z, field int, p ssa.Instruction, gp uint32, starts []uint32) bool {
	m, ok := o.f.FuncID(mg)
	if !ok {
		return false
	}
	var w *ssa.Function
	var v ssa.Value
	for _, i := range o.callSitesOf(m) {
		call, ok := o.f.Call(i).(*ssa.Call)
		caller := o.f.Caller(i)
		if !slices.Contains(o.gs.Of(caller), gp) || !slices.Contains(o.spawnerCtxs[i], ctx) {
			continue
		}
		if !ok || call.Call.StaticCallee() != mg || w != nil && (call.Parent() != w || call.Call.Args[z] != v) {
			return false
		}
		w, v = call.Parent(), call.Call.Args[z]
	}
	if w == nil || !o.fixedInActivation(v) || o.gs.count.total(o.funcIDOf(w)) > 1 {
		return false
	}
	waits := o.waitsOn(w, v, field)
	after := func(x ssa.Instruction) bool {
		return slices.ContainsFunc(waits, func(wait ssa.Instruction) bool {
			// x is not the Wait itself: the Wait is an access too (of the WaitGroup).
			return wait != x && pointsto.RunsBefore(wait, x) && !o.mayRunBetween(wait, x, starts)
		})
	}
	if p.Parent() == w {
		return after(p)
	}
	if w.Recover != nil {
		return false
	}
	for _, b := range w.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !after(ret) {
			return false
		}
	}
	for _, b := range p.Parent().Blocks {
		for _, instr := range b.Instrs {
			// p is not that call itself (a whole call, CallOrdered's p).
			if call, ok := instr.(*ssa.Call); ok && call.Call.StaticCallee() == w && instr != p &&
				pointsto.RunsBefore(call, p) && !o.mayRunBetween(call, p, starts) {
				return true
			}
		}
	}
	return false
}

// waitsOn returns the calls in w that wait on field of v: WaitGroup's
// Wait on &v.field, or a static call, on v, of a function that calls Wait
// on that field of its parameter on every path to return.
func (o *Order) waitsOn(w *ssa.Function, v ssa.Value, field int) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil {
				continue
			}
			if base, f, ok := waitGroupField(call); ok && isWaitMethod(callee) && base == v && f == field {
				out = append(out, call)
				continue
			}
			for z, arg := range call.Call.Args {
				if arg == v && z < len(callee.Params) && callsOnEveryReturn(callee, callee.Params[z], field, isWaitMethod) {
					out = append(out, call)
					break
				}
			}
		}
	}
	return out
}

// isWaitMethod reports whether fn is sync.WaitGroup's Wait.
func isWaitMethod(fn *ssa.Function) bool {
	return fn != nil && fn.Name() == "Wait" && isWaitGroupFunc(fn)
}

// findSpawnerCtxs records, for each call site that may call a function
// with a go statement, the contexts that function runs in when called
// there (waitedInCaller).
func (o *Order) findSpawnerCtxs(r *pointsto.Result) {
	spawners := map[uint32]bool{}
	for _, gr := range o.gs.List {
		if gr.Kind == GoGoroutine {
			spawners[o.f.Caller(gr.Site)] = true
		}
	}
	o.spawnerCtxs = map[uint32][]pointsto.Ctx{}
	for t := range r.Tuples("callEdge") {
		if i, c2, m := t[1], t[2], t[3]; spawners[m] && !slices.Contains(o.spawnerCtxs[i], c2) {
			o.spawnerCtxs[i] = append(o.spawnerCtxs[i], c2)
		}
	}
}
