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
//   - the counter of a counting loop whose test stops it before it wraps,
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
	k1, ok1 := instanceKey(f.Access(e1), site)
	k2, ok2 := instanceKey(f.Access(e2), site)
	if !ok1 || !ok2 || k1 != k2 {
		return false
	}
	if k1.index {
		return g1 == g2 && gs.count.of(gr.Ctx, f.Caller(gr.Site)) <= 1 &&
			o.countsUpAt(k1.bound, site, g1, f.Access(e1), f.Access(e2))
	}
	return freshAt(k1.bound, site)
}

// key is what an access reaches its location through: the value bound at
// the go statement, as an object's root or as an array index.
type key struct {
	bound ssa.Value
	index bool
}

// instanceKey returns the value bound at go statement site that access
// instr (in the function site calls) reaches its location through.
func instanceKey(instr ssa.Instruction, site *ssa.Go) (key, bool) {
	callee := site.Call.StaticCallee()
	if callee == nil || instr.Parent() != callee {
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
	case *ssa.Call:
		if b, ok := in.Call.Value.(*ssa.Builtin); !ok || b.Name() != "close" {
			return key{}, false
		}
		v = in.Call.Args[0]
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
			if idx := resolve(a.Index, site); idx != nil && wholeArray(a.X, site) {
				return key{idx, true}, true
			}
			v = a.X
		default:
			if b := resolve(v, site); b != nil {
				return key{b, false}, true
			}
			return key{}, false
		}
	}
}

// resolve returns the value, in the function that runs go statement site,
// that v, in the function site calls, always equals: the value bound to a
// parameter or free variable, or the one value ever stored in a captured
// variable; or nil. Termination: the recursion goes from a load to its
// operand, defined before it, and stops at anything but a load.
func resolve(v ssa.Value, site *ssa.Go) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok {
		if cell, ok := resolve(load.X, site).(*ssa.Alloc); ok && load.Op == token.MUL {
			return pointsto.StoredOnce(cell, site)
		}
		return nil
	}
	return bindingAt(v, site)
}

// bindingAt returns the value go statement site binds to parameter or free
// variable v of the function it calls, or nil.
func bindingAt(v ssa.Value, site *ssa.Go) ssa.Value {
	callee := site.Call.StaticCallee()
	switch v := v.(type) {
	case *ssa.Parameter:
		for z, p := range callee.Params {
			if p == v && z < len(site.Call.Args) {
				return site.Call.Args[z]
			}
		}
	case *ssa.FreeVar:
		if mc, ok := site.Call.Value.(*ssa.MakeClosure); ok {
			for z, fv := range callee.FreeVars {
				if fv == v && z < len(mc.Bindings) {
					return mc.Bindings[z]
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
func wholeArray(x ssa.Value, site *ssa.Go) bool {
	if _, ok := x.Type().Underlying().(*types.Slice); ok {
		switch s := resolve(x, site).(type) {
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
			switch resolve(x, site).(type) {
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
// run of go statement site: it dominates site, and no way from site back
// to itself avoids it.
func freshAt(v ssa.Value, site *ssa.Go) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.MakeChan, *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeClosure:
	default:
		return false
	}
	alloc := v.(ssa.Instruction).Block()
	b := site.Block()
	if alloc == b {
		return true // defined before the go statement in its block
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
// grows between any two runs of go statement site, started as goroutine g,
// that may run accesses a1 and a2 at the same time: site is in the loop's
// body, every way from site back to itself goes around the loop, the
// counter never wraps, and if the loop may start again, a Wait joins the
// goroutines of one run, after their accesses, before the next run.
func (o *Order) countsUpAt(v ssa.Value, site *ssa.Go, g uint32, a1, a2 ssa.Instruction) bool {
	phi, ok := v.(*ssa.Phi)
	if !ok {
		return false
	}
	h := phi.Block()
	l := o.f.Loop(h)
	if l == nil || l.Counter != phi || !l.Increases() {
		return false
	}
	b := site.Block()
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
		// The loop may start again and the counter restart.
		goEv, ok := o.goEventOf(g)
		if !ok || o.pendingAt(entry.Instrs[len(entry.Instrs)-1]).Test(uint(goEv)) ||
			!o.releasedAfter(goEv, g, a1) || !o.releasedAfter(goEv, g, a2) {
			return false
		}
	}
	return true
}
