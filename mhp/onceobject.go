package mhp

import (
	"go/types"
	"slices"
	"strings"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// A fieldOnce places an access inside the f of a sync.Once that is a
// field of the object the access reaches its location through: every
// run of the access lies in the one run of the f of the Once at field of
// that object, whichever of the Do calls dos ran it.
type fieldOnce struct {
	field int
	dos   []ssa.Instruction
}

// onceObjectOf returns where access x runs inside the f of a Once field
// of the object whose location it touches (through field addresses from
// its root, accessRoot), if it does:
//
//   - a function literal that runs only as the f of one Do call on field
//     of its root, or inside such a literal (lift: p.once.Do(func() {
//     p.x = 1 }));
//   - a method with a pointer receiver, the access through the receiver,
//     whose every call is the call in its bound method wrapper, and every
//     bound method value of which is made only to be the f of a Do on one
//     field of the receiver it binds (p.once.Do(p.build); boundOnce).
//
// A literal or method also run otherwise (a plain call, a go statement, a
// method value kept or given to a Do on another object's Once or on
// another field) may run outside that run, so it gets nothing.
func (o *Order) onceObjectOf(x ssa.Instruction) (fieldOnce, bool) {
	root, ok := accessRoot(x)
	if !ok || inRecover(x) {
		return fieldOnce{}, false
	}
	fr := o.lift(x, root)
	if inRecover(fr.at) {
		return fieldOnce{}, false
	}
	if fr.once != nil {
		return fieldOnce{fr.onceField, []ssa.Instruction{fr.once}}, true
	}
	m := fr.at.Parent()
	if m.Parent() != nil || m.Signature.Recv() == nil || len(m.Params) == 0 || fr.root != (ref{v: m.Params[0]}) {
		return fieldOnce{}, false
	}
	if _, ok := m.Params[0].Type().Underlying().(*types.Pointer); !ok {
		return fieldOnce{}, false
	}
	return o.boundOnce(m)
}

// boundOnce returns, for method m, the one field of its receiver on whose
// Once every bound method value of m is the f of a Do, and those Do
// calls, when m runs only through them: every call of m is the call in a
// bound method wrapper of m (a call from anywhere else, an interface
// call, a go statement or a method expression's thunk would run m outside
// a Do), and every closure of such a wrapper (pointsto's closure sites)
// is used only as the f of a Do on that field of the value it binds.
func (o *Order) boundOnce(m *ssa.Function) (fieldOnce, bool) {
	if in, ok := o.once.bound[m]; ok {
		return in, in.dos != nil
	}
	in := o.findBoundOnce(m)
	o.once.bound[m] = in
	return in, in.dos != nil
}

// findBoundOnce computes boundOnce; a fieldOnce without Do calls if m
// runs otherwise.
func (o *Order) findBoundOnce(m *ssa.Function) fieldOnce {
	id, ok := o.f.FuncID(m)
	if !ok {
		return fieldOnce{}
	}
	var wrappers []*ssa.Function
	for _, i := range o.callSitesOf(id) {
		call, ok := o.f.Call(i).(*ssa.Call)
		if !ok || call.Call.IsInvoke() || call.Call.StaticCallee() != m {
			return fieldOnce{}
		}
		w := call.Parent()
		if !isBoundWrapper(w) || call.Call.Args[0] != w.FreeVars[0] {
			return fieldOnce{}
		}
		if !slices.Contains(wrappers, w) {
			wrappers = append(wrappers, w)
		}
	}
	in := fieldOnce{field: -1}
	for _, w := range wrappers {
		for _, mc := range o.closuresOf(w) {
			do, ok := onlyUse(mc).(*ssa.Call)
			if !ok || do.Call.Value == ssa.Value(mc) || !runsInside(do, mc) {
				return fieldOnce{}
			}
			base, field, ok := waitGroupField(do)
			if !ok || settled(base, do) != settled(mc.Bindings[0], do) || in.field >= 0 && field != in.field {
				return fieldOnce{}
			}
			in.field = field
			in.dos = append(in.dos, do)
		}
	}
	return in
}

// isBoundWrapper reports whether w is the synthetic function of a method
// value (go/ssa's bound method wrapper): it calls the method on its one
// free variable, the receiver the method value binds.
func isBoundWrapper(w *ssa.Function) bool {
	return w.Parent() == nil && len(w.FreeVars) == 1 && strings.HasPrefix(w.Synthetic, "bound method wrapper for ")
}

// closuresOf returns the MakeClosure instructions of function literal or
// bound method wrapper fn, from pointsto's closure sites: a closure made
// in code the points-to does not reach never runs.
func (o *Order) closuresOf(fn *ssa.Function) []*ssa.MakeClosure {
	if o.once.closures == nil {
		o.once.closures = map[*ssa.Function][]*ssa.MakeClosure{}
		for h := range uint32(o.f.Size(pointsto.DomH)) {
			s := o.f.Site(h)
			if mc, ok := s.Value.(*ssa.MakeClosure); ok && s.Kind == pointsto.SiteClosure {
				fn := mc.Fn.(*ssa.Function)
				o.once.closures[fn] = append(o.once.closures[fn], mc)
			}
		}
	}
	return o.once.closures[fn]
}

// onceDone reports whether access a happens before access b because a
// runs inside the f of a sync.Once that is a field of the object whose
// location a touches (onceObjectOf), and b is made, through a value fixed
// in its function's activation, after a Do on the same field of that value
// returned (onceDoneBefore), when no write that is not atomic may reset a
// Once any of these Do calls uses (mhp.dl's stateWritten: p.once =
// sync.Once{}, or a copy over the struct that holds it, would let f run
// again after b).
//
// Why this holds: a and b reach their location from roots of one type
// through field addresses alone; Go's types let two such addresses be
// one only when the roots are one pointer P. a runs inside the one run of
// the f of the Once at P.field (the f of no other Once, nor outside a
// Do), and b after a Do on that same Once returned in b's goroutine. The
// Go memory model: the completion of the single call of f from
// once.Do(f) is synchronized before the return of any call of once.Do.
// The Once may stand for many concrete ones (a field of objects made in a
// loop): the location names which, so none need be Unique.
func (o *Order) onceDone(a, b ssa.Instruction) bool {
	in, ok := o.onceObjectOf(a)
	if !ok {
		return false
	}
	q, ok := accessRoot(b)
	if _, _, same := o.accessFrames(a, b); !ok || !same {
		return false
	}
	dos, ok := o.onceDoneBefore(b, settled(q, b), in.field)
	return ok && !o.onceReset(in.dos) && !o.onceReset(dos)
}

// onceDoneBefore returns Do calls on field of q, one of which returned
// before b on every path of b's function, where q holds one value in the
// activation (fixedRef): a Do on &q.field there, or a static call on q of a function
// that calls Do on that field of its parameter on every path to its
// return (func (p *Package) Build() { p.once.Do(p.build) }); the Do calls
// that function makes on its parameter then.
func (o *Order) onceDoneBefore(b ssa.Instruction, q ref, field int) ([]ssa.Instruction, bool) {
	if !o.fixedRef(q, b.Parent()) || inRecover(b) {
		return nil, false
	}
	for _, blk := range b.Parent().Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !pointsto.RunsBefore(call, b) {
				continue
			}
			callee := call.Call.StaticCallee()
			if base, f, ok := waitGroupField(call); ok && isOnceDo(callee) && f == field && settled(base, call) == q {
				return []ssa.Instruction{call}, true
			}
			if callee == nil {
				continue
			}
			for z, arg := range call.Call.Args {
				if z < len(callee.Params) && settled(arg, call) == q && callsOnEveryReturn(callee, callee.Params[z], field, isOnceDo) {
					return oncesOn(callee, callee.Params[z], field), true
				}
			}
		}
	}
	return nil, false
}

// fixedRef reports whether q holds one value in each activation of fn: a
// value fixed in it, or a variable captured by fn, a literal made once,
// that is stored once before the closure is made and then only loaded
// (bound), so every load of it in fn gives that value.
func (o *Order) fixedRef(q ref, fn *ssa.Function) bool {
	if !q.deref {
		return o.fixedInActivation(q.v)
	}
	if fn.Parent() == nil {
		return false
	}
	mc, ok := o.madeOnce(fn).(*ssa.MakeClosure)
	if !ok {
		return false
	}
	_, ok = bound(q, mc, mc)
	return ok
}

// oncesOn returns the Do calls of fn on field of p.
func oncesOn(fn *ssa.Function, p *ssa.Parameter, field int) []ssa.Instruction {
	var dos []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && isOnceDo(call.Call.StaticCallee()) {
				if base, f, ok := waitGroupField(call); ok && base == p && f == field {
					dos = append(dos, call)
				}
			}
		}
	}
	return dos
}

// onceReset reports whether a write that is not atomic may reset a Once
// one of the Do calls dos uses, or one of them is no Do event.
func (o *Order) onceReset(dos []ssa.Instruction) bool {
	for _, do := range dos {
		evs := o.evOf[do]
		if len(evs) == 0 {
			return true
		}
		for _, ev := range evs {
			if slices.ContainsFunc(o.syncObjs[o.events[ev].id], func(x uint32) bool { return o.once.written[x] }) {
				return true
			}
		}
	}
	return false
}

// isOnceDo reports whether fn is sync.Once's Do.
func isOnceDo(fn *ssa.Function) bool {
	return fn != nil && fn.Name() == "Do" && isOnceMethod(fn)
}
