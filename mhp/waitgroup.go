package mhp

import (
	"go/constant"
	"go/token"
	"go/types"
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
//	c.val = f()        // a
//	c.wg.Done()
//
//	c.wg.Wait()        // in a caller that found c
//	return c.val       // b
//
// Conditions: a reaches its location through fields of p, an object its
// function allocates; an Add of a constant greater than zero on the
// WaitGroup field of p runs after the allocation and before any use of p
// that may hand it on (anything but field addresses, loads, stores into
// it, and WaitGroup calls on it); every Done that may use that WaitGroup
// (its abstract objects) is a call in a's function on that field of p
// that cannot run before a; b reaches its location through the same
// fields path root q, a value fixed for its function's activation, after
// a Wait on that field of q on every path.
//
// Why this holds: if a and b touch one location, p and q are one object,
// made by one activation of a's function (each activation allocates its
// own). Its Add ran before any goroutine could get p; the goroutine of b
// got it after (through a publication that happens before, or that races
// itself and is reported), so the Add happens before b's Wait. The Wait
// returns when the counter is zero again, which needs a Done answering
// that Add (the WaitGroup rule of its documentation); every Done that can
// touch this WaitGroup is in that activation and after a.
func (o *Order) ownWaitGroup(a, b ssa.Instruction) bool {
	p, ok1 := accessRoot(a)
	q, ok2 := accessRoot(b)
	alloc, ok3 := p.(*ssa.Alloc)
	if !ok1 || !ok2 || !ok3 || !alloc.Heap || a.Block() == a.Parent().Recover || !o.fixedInActivation(q) ||
		!types.Identical(p.Type(), q.Type()) {
		return false
	}
	for _, add := range o.fnEvents(alloc.Parent(), evAdd) {
		base, field, ok := waitGroupField(o.events[add].instr)
		if !ok || base != p || !positiveDelta(o.events[add].instr) || !countedBeforeShared(alloc, o.events[add].instr) {
			continue
		}
		if o.donesAfter(a, p, field, o.syncObjs[o.events[add].id]) && o.waitedBefore(b, q, field) {
			return true
		}
	}
	return false
}

// donesAfter reports whether every Done that may use one of the WaitGroup
// objects objs is a call on field of p in a's function that cannot run
// before a, and there is one.
func (o *Order) donesAfter(a ssa.Instruction, p ssa.Value, field int, objs []uint32) bool {
	n := 0
	for _, ev := range o.events {
		if ev.kind != evDone || !slices.ContainsFunc(o.syncObjs[ev.id], func(x uint32) bool { return slices.Contains(objs, x) }) {
			continue
		}
		base, f, ok := waitGroupField(ev.instr)
		if !ok || base != p || f != field || ev.instr.Parent() != a.Parent() {
			return false
		}
		if _, deferred := ev.instr.(*ssa.Defer); !deferred && mayFollow(a, ev.instr) {
			return false // a may run after this Done
		}
		n++
	}
	return n > 0
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

// isWaitGroupMethod reports whether call calls a method of sync.WaitGroup.
func isWaitGroupMethod(call ssa.CallInstruction) bool {
	fn := call.Common().StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Signature.Recv() != nil &&
		fn.Signature.Recv().Type().String() == "*sync.WaitGroup"
}
