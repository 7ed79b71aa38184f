package mhp

import (
	"go/token"
	"go/types"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// Apart reports whether access e1 run by goroutine g1 and access e2 run by
// g2 never touch the same location in two different goroutine instances,
// though the abstract location is one. Both goroutines are started by the
// same go statement, both accesses sit in the function it calls and reach
// their location through one parameter or free variable, bound at the go
// statement to a value that differs at every run of that statement:
//
//   - an object allocated anew before every run (the allocation dominates
//     the go statement and no way from the go statement back to itself
//     avoids it), and the location lies inside that object; or
//   - the counter of a counting loop whose test stops it before it wraps
//     (or, in for i := range s, the counter plus one that the body sees),
//     in a function that runs at most once in the goroutine's context (so
//     g1 and g2 must be one abstract goroutine), with the go statement in
//     the loop body and every way from it back to itself going around the
//     loop (so the counter grew in between), and the location is the
//     element at that index of an array object (a whole array, not a view
//     into a slice that other instances might shift). If the loop may
//     start again, a Wait must join the instances of one run of the loop
//     before the next run (see joined): instances of two runs are then
//     ordered instead.
//
// Two runs of the go statement start two instances, which see two values;
// one run starts one instance, where program order orders the accesses.
func (o *Order) Apart(e1, g1, e2, g2 uint32) bool {
	gs, f := o.gs, o.f
	gr := &gs.List[g1]
	if gr.Kind != GoGoroutine || gs.List[g2].Kind != GoGoroutine || gs.List[g2].Site != gr.Site {
		return false
	}
	site, ok := f.Call(gr.Site).(*ssa.Go)
	if !ok || site.Call.IsInvoke() {
		return false
	}
	a1, a2 := f.Access(e1), f.Access(e2)
	if o.handedApart(a1, a2, g1) && o.handedApart(a1, a2, g2) {
		return true
	}
	at := goBinder(site)
	k1, ok1 := instanceKey(a1, at)
	k2, ok2 := instanceKey(a2, at)
	if !ok1 || !ok2 || k1 != k2 {
		return false
	}
	if k1.index {
		return g1 == g2 && gs.count.of(gr.Ctx, f.Caller(gr.Site)) <= 1 &&
			o.countsUpAt(k1.bound, site, func(entry *ssa.BasicBlock) bool { return o.joinedBefore(entry, g1, a1, a2) })
	}
	return freshAt(k1.bound, site)
}

// handedApart reports whether accesses a1 and a2 of a function literal
// that goroutine g calls never touch the same location in two different
// calls: each value of the literal is handed to one call of the function
// whose go statement starts g, and called once, in that instance
// (handedCall: errgroup's and WaitGroup's Go in a loop), and the accesses
// reach their location as the element, at an index captured when the
// value is made, of a whole array; the index is the counter of a counting
// loop that grows between any two makings of the value, in a function
// that runs at most once, and the loop does not start again. Two calls
// run two values, made in two iterations, with two indexes; one call runs
// its accesses one after the other.
func (o *Order) handedApart(a1, a2 ssa.Instruction, g uint32) bool {
	m, ok := o.f.FuncID(a1.Parent())
	if !ok || a2.Parent() != a1.Parent() {
		return false
	}
	use, value, ok := o.handedCall(m, g)
	mc, ok2 := value.(*ssa.MakeClosure)
	if !ok || !ok2 || !freshAt(mc, use) {
		return false
	}
	at := closureBinder(mc)
	k1, ok1 := instanceKey(a1, at)
	k2, ok2 := instanceKey(a2, at)
	caller, ok3 := o.f.FuncID(mc.Parent())
	return ok1 && ok2 && ok3 && k1 == k2 && k1.index && o.gs.count.total(caller) <= 1 &&
		o.countsUpAt(k1.bound, mc, func(*ssa.BasicBlock) bool { return false })
}

// key is what an access reaches its location through: the value bound at
// the go statement, as an object's root or as an array index.
type key struct {
	bound ssa.Value
	index bool
}

// A binder is where the parameters and free variables of function fn get
// their values: a go statement (its arguments, and the bindings of the
// closure it calls) or the making of a closure (its bindings), at at.
type binder struct {
	fn   *ssa.Function
	args []ssa.Value
	mc   *ssa.MakeClosure
	at   ssa.Instruction
}

func goBinder(site *ssa.Go) binder {
	mc, _ := site.Call.Value.(*ssa.MakeClosure)
	return binder{fn: site.Call.StaticCallee(), args: site.Call.Args, mc: mc, at: site}
}

func closureBinder(mc *ssa.MakeClosure) binder {
	return binder{fn: mc.Fn.(*ssa.Function), mc: mc, at: mc}
}

// instanceKey returns the value bound at b that access instr (in the
// function b binds) reaches its location through.
func instanceKey(instr ssa.Instruction, b binder) (key, bool) {
	if b.fn == nil || instr.Parent() != b.fn {
		return key{}, false
	}
	var v ssa.Value
	switch in := instr.(type) {
	case *ssa.Store:
		v = in.Addr
	case *ssa.UnOp:
		if in.Op != token.MUL && in.Op != token.ARROW {
			return key{}, false
		}
		v = in.X
	case *ssa.Send:
		v = in.Chan
	case *ssa.MapUpdate:
		v = in.Map
	case *ssa.Lookup:
		v = in.X
	case *ssa.Call, *ssa.Defer:
		if v = closed(in.(ssa.CallInstruction)); v == nil {
			return key{}, false
		}
	default:
		return key{}, false
	}
	// Termination: each step moves to the base of an address instruction,
	// defined before it; anything else ends the walk.
	for {
		switch a := v.(type) {
		case *ssa.FieldAddr:
			v = a.X
		case *ssa.IndexAddr:
			if idx := resolve(a.Index, b); idx != nil && wholeArray(a.X, b) {
				return key{idx, true}, true
			}
			v = a.X
		default:
			if r := resolve(v, b); r != nil {
				return key{r, false}, true
			}
			return key{}, false
		}
	}
}

// resolve returns the value, in the function that runs b, that v, in the
// function b binds, always equals: the value bound to a parameter or free
// variable, or the one value ever stored in a captured variable; or nil.
// Termination: the recursion goes from a load to its operand, defined
// before it, and stops at anything but a load.
func resolve(v ssa.Value, b binder) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok {
		if cell, ok := resolve(load.X, b).(*ssa.Alloc); ok && load.Op == token.MUL {
			return pointsto.StoredOnce(cell, b.at)
		}
		return nil
	}
	return bindingAt(v, b)
}

// bindingAt returns the value b binds to parameter or free variable v of
// the function it binds, or nil.
func bindingAt(v ssa.Value, b binder) ssa.Value {
	if b.fn == nil {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		for z, p := range b.fn.Params {
			if p == v && z < len(b.args) {
				return b.args[z]
			}
		}
	case *ssa.FreeVar:
		if b.mc != nil {
			for z, fv := range b.fn.FreeVars {
				if fv == v && z < len(b.mc.Bindings) {
					return b.mc.Bindings[z]
				}
			}
		}
	}
	return nil
}

// wholeArray reports whether x, a slice or a pointer to an array, views a
// whole array object from its start: a slice that make returned, or a
// pointer to an array variable or to an array inside one (a field or
// element). Index i of it is then element i of the array, whatever the
// instance; a slice another instance may have resliced would not be.
func wholeArray(x ssa.Value, b binder) bool {
	if _, ok := x.Type().Underlying().(*types.Slice); ok {
		switch s := resolve(x, b).(type) {
		case *ssa.MakeSlice:
			return true
		case *ssa.Slice: // make with a constant length: an array, sliced whole
			_, ok := s.X.(*ssa.Alloc)
			return ok && s.Low == nil
		}
		return false
	}
	if ptr, ok := x.Type().Underlying().(*types.Pointer); !ok || !isArray(ptr.Elem()) {
		return false
	}
	// Termination: as in instanceKey, each step moves to an address's base.
	for {
		switch a := x.(type) {
		case *ssa.FieldAddr:
			x = a.X
		case *ssa.IndexAddr:
			if ptr, ok := a.X.Type().Underlying().(*types.Pointer); !ok || !isArray(ptr.Elem()) {
				return false
			}
			x = a.X
		case *ssa.Alloc, *ssa.Global:
			return true
		default:
			switch resolve(x, b).(type) {
			case *ssa.Alloc, *ssa.Global:
				return true
			}
			return false
		}
	}
}

func isArray(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// freshAt reports whether v is an allocation that runs anew before every
// run of instruction at: it dominates at, and no way from at back to
// itself avoids it.
func freshAt(v ssa.Value, at ssa.Instruction) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.MakeChan, *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeClosure:
	default:
		return false
	}
	alloc := v.(ssa.Instruction).Block()
	b := at.Block()
	if alloc == b {
		return pointsto.RunsBefore(v.(ssa.Instruction), at)
	}
	if !alloc.Dominates(b) {
		return false
	}
	for _, s := range b.Succs {
		if pointsto.ReachesAvoiding(s, b, alloc) {
			return false
		}
	}
	return true
}

// countsUpAt reports whether v is the counter of a counting loop that
// grows between any two runs of instruction at: at is in the loop's body,
// every way from at back to itself goes around the loop, and the counter
// never wraps. If the loop may start again (an entry into it that at
// reaches), joined must say that the runs of at before that entry cannot
// be paired with the later ones.
func (o *Order) countsUpAt(v ssa.Value, at ssa.Instruction, joined func(entry *ssa.BasicBlock) bool) bool {
	in, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	h := in.Block()
	l := o.f.Loop(h)
	if l == nil || v != l.Counter && v != l.Next || !l.Increases() {
		return false
	}
	b := at.Block()
	if !h.Succs[0].Dominates(b) {
		return false // not in the body the test guards
	}
	for _, s := range b.Succs {
		if pointsto.ReachesAvoiding(s, b, h) {
			return false // a way around that skips the test
		}
	}
	for _, entry := range h.Preds {
		if h.Dominates(entry) || !pointsto.ReachesAvoiding(b, entry, nil) {
			continue
		}
		if !joined(entry) {
			return false // the loop may start again and the counter restart
		}
	}
	return true
}

// joinedBefore reports whether a Wait joins the goroutines g of one run of
// a loop, after their accesses a1 and a2, before entry starts the loop
// again: g's go statement is not pending at the end of entry.
func (o *Order) joinedBefore(entry *ssa.BasicBlock, g uint32, a1, a2 ssa.Instruction) bool {
	goEv, ok := o.goEventOf(g)
	return ok && !o.pendingAt(entry.Instrs[len(entry.Instrs)-1]).Test(uint(goEv)) &&
		o.releasedAfter(goEv, g, a1) && o.releasedAfter(goEv, g, a2)
}
