package mhp

import (
	"go/token"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// oneInstance reports whether function m runs in at most one instance of
// goroutine g, though g may have several: m is a function literal handed
// to one call of the function G0 that starts g, and each instance calls
// only the function G0 was handed (errgroup's and WaitGroup's Go:
// wg.Add(1); go func() { defer wg.Done(); f() }()), and that call of G0
// runs at most once per execution (handedCall). Then m's value reaches
// one run of G0, so one run of its go statement, so one instance.
func (o *Order) oneInstance(m uint32, g uint32) bool {
	use, _, ok := o.handedCall(m, g)
	if !ok || o.repeats(use.Block()) {
		return false
	}
	caller, ok := o.f.FuncID(use.Parent())
	return ok && o.gs.count.total(caller) <= 1
}

// handedCall returns the one call that hands function literal m's one
// value to the function G0 that starts goroutine g, and that value, when
// each value that call hands G0 is called once in all, by the instance of
// g that the run of G0 starts.
//
// Conditions: g's go statement S, in G0 and not in a loop, starts g's
// one entry E, which captures G0's parameter f (a variable stored once,
// from the parameter, and used by nothing but S's closure) and only calls
// it; the only call of m anywhere is that call in E, not in a loop; m's
// only value (its closure, or m itself) is made once in its enclosing
// function and used only as the argument f of one call of G0.
func (o *Order) handedCall(m uint32, g uint32) (*ssa.Call, ssa.Value, bool) {
	gr := &o.gs.List[g]
	fn := o.f.Func(m)
	entry := o.entryOf(g)
	if gr.Kind != GoGoroutine || fn == nil || fn.Parent() == nil || entry == nil {
		return nil, nil, false
	}
	site, ok := o.f.Call(gr.Site).(*ssa.Go)
	if !ok || o.repeats(site.Block()) {
		return nil, nil, false
	}
	sites := o.callSitesOf(m)
	if len(sites) != 1 || o.cg.kind[sites[0]] != plainCall {
		return nil, nil, false
	}
	call := o.f.Call(sites[0])
	if call.Parent() != entry || o.repeats(call.Block()) {
		return nil, nil, false
	}
	param, ok := capturedParam(call.Common().Value, site)
	if !ok {
		return nil, nil, false
	}
	value := o.madeOnce(fn)
	if value == nil {
		return nil, nil, false
	}
	use, ok := onlyUse(value).(*ssa.Call)
	if !ok || use.Call.StaticCallee() != site.Parent() {
		return nil, nil, false
	}
	k := paramIndex(param)
	if k < 0 || k >= len(use.Call.Args) || use.Call.Args[k] != value {
		return nil, nil, false
	}
	return use, value, true
}

// capturedParam returns the parameter of the function of go statement
// site that v, the function value of the only use of a free variable of
// the closure site starts, always is: v loads the free variable, bound at
// site to a variable that the parameter is stored into once and that
// nothing but site's closure uses.
func capturedParam(v ssa.Value, site *ssa.Go) (*ssa.Parameter, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || onlyUse(load) == nil {
		return nil, false
	}
	fv, ok := load.X.(*ssa.FreeVar)
	if !ok || onlyUse(fv) != ssa.Instruction(load) {
		return nil, false
	}
	cell, ok := bindingAt(fv, goBinder(site)).(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	param, ok := pointsto.StoredOnce(cell, site).(*ssa.Parameter)
	if !ok || param.Parent() != site.Parent() || onlyUse(param) == nil {
		return nil, false
	}
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Val != param {
				return nil, false
			}
		case *ssa.MakeClosure:
			if ssa.Value(r) != site.Call.Value {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return param, true
}

// madeOnce is findMadeOnce, kept per function.
func (o *Order) madeOnce(fn *ssa.Function) ssa.Value {
	v, ok := o.made[fn]
	if !ok {
		v = findMadeOnce(fn)
		o.made[fn] = v
	}
	return v
}

// repeats is Facts.Repeats, kept per block.
func (o *Order) repeats(b *ssa.BasicBlock) bool {
	v, ok := o.repeatsAt[b]
	if !ok {
		v = o.f.Repeats(b)
		o.repeatsAt[b] = v
	}
	return v
}

// findMadeOnce returns the one value of function literal fn in its enclosing
// function: its closure, or fn itself if it captures nothing and is used
// once; or nil.
func findMadeOnce(fn *ssa.Function) ssa.Value {
	var found ssa.Value
	n := 0
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				found = mc
				n++
				continue
			}
			var ops [8]*ssa.Value
			for _, op := range instr.Operands(ops[:0]) {
				if *op == fn {
					found = fn
					n++
				}
			}
		}
	}
	if n != 1 {
		return nil
	}
	return found
}

// onlyUse returns the one instruction that uses v, not counting debug
// references, or nil.
func onlyUse(v ssa.Value) ssa.Instruction {
	var use ssa.Instruction
	for _, ref := range *v.Referrers() {
		if _, ok := ref.(*ssa.DebugRef); ok {
			continue
		}
		if use != nil {
			return nil
		}
		use = ref
	}
	return use
}

// paramIndex returns the position of p among the arguments of a call of
// its function (the receiver first), or -1.
func paramIndex(p *ssa.Parameter) int {
	for k, q := range p.Parent().Params {
		if q == p {
			return k
		}
	}
	return -1
}
