package mhp

import (
	"go/constant"
	"go/token"
	"slices"
	"strings"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// lastOut reports whether accesses a and b both run only in the one
// branch that a single atomic Add on a counter enters: the last goroutine
// out closes the door,
//
//	waited := int32(n)                    // the one write that is not an Add
//	for i := 0; i < n; i++ {
//		go func() {
//			...
//			if atomic.AddInt32(&waited, -1) == 0 {
//				close(done)               // a and b
//			}
//		}()
//	}
//
// Conditions: both accesses are in one function, in blocks that block B
// dominates; B has one way in, the branch taken when Add(&v, d), d a
// nonzero constant, returns constant K; v is a variable (Alloc) whose
// allocation runs at most once in an execution (its objects are Unique),
// and every use of v, in its function and in the closures it is bound
// to, is a plain load, an atomic Load, an atomic Add of a constant of d's
// sign, or a store in the allocating block before any other use there
// (its initial value, before anything can share it).
//
// Why this holds: there is one v. The Go memory model makes its atomic
// operations sequentially consistent: the Adds on v run one after another,
// each returning the value before it plus its delta; every delta has d's
// sign and nothing else writes v after its initial value, so the values
// returned strictly increase (or decrease) and at most one Add returns K.
// B is entered at most once in the execution, so a and b run only in the
// one activation that entered it, in one goroutine, one after the other.
// (A counter that wraps around, after 2^32 Adds of an int32, is not
// considered.)
func (o *Order) lastOut(a, b ssa.Instruction) bool {
	if a.Parent() != b.Parent() {
		return false
	}
	for _, blk := range a.Parent().Blocks {
		if blk.Dominates(a.Block()) && blk.Dominates(b.Block()) && o.enteredOnce(blk) {
			return true
		}
	}
	return false
}

// enteredOnce reports whether block b is entered only by the branch taken
// when one atomic Add on a counter that only such Adds change returns a
// constant (lastOut's conditions).
func (o *Order) enteredOnce(b *ssa.BasicBlock) bool {
	_, _, _, ok := o.door(b)
	return ok
}

// door returns, when block b is entered only by the branch taken when an
// atomic Add returns constant k, the Add, k and the counter, if the counter
// exists at most once and only such Adds change it (lastOut's conditions),
// with its uses.
func (o *Order) door(b *ssa.BasicBlock) (*ssa.Call, constant.Value, *counterUses, bool) {
	if len(b.Preds) != 1 {
		return nil, nil, nil, false
	}
	br, ok := b.Preds[0].Instrs[len(b.Preds[0].Instrs)-1].(*ssa.If)
	if !ok {
		return nil, nil, nil, false
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ || (cmp.Op == token.EQL) != (br.Block().Succs[0] == b) {
		return nil, nil, nil, false
	}
	call, k := cmp.X, cmp.Y
	if _, ok := k.(*ssa.Const); !ok {
		call, k = k, call
	}
	add, ok := call.(*ssa.Call)
	kc, isConst := k.(*ssa.Const)
	if !ok || !isConst || kc.Value == nil {
		return nil, nil, nil, false
	}
	sign, ok := atomicAddSign(add)
	if !ok {
		return nil, nil, nil, false
	}
	cell, ok := boundAlloc(add.Call.Args[0])
	if !ok || !o.allocatedOnce(cell) {
		return nil, nil, nil, false
	}
	uses := &counterUses{cell: cell}
	if !onlyMonotone(cell, cell, sign, uses) {
		return nil, nil, nil, false
	}
	return add, kc.Value, uses, true
}

// counterUses are the stores and atomic Adds of a counter (onlyMonotone).
type counterUses struct {
	cell   *ssa.Alloc
	stores []*ssa.Store
	adds   []ssa.CallInstruction
}

// atomicAddSign returns the sign of the constant delta when call is one of
// sync/atomic's Add functions.
func atomicAddSign(call ssa.CallInstruction) (int, bool) {
	fn := call.Common().StaticCallee()
	args := call.Common().Args
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || fn.Signature.Recv() != nil ||
		!strings.HasPrefix(fn.Name(), "Add") || len(args) != 2 {
		return 0, false
	}
	d, ok := args[1].(*ssa.Const)
	if !ok || d.Value == nil || d.Value.Kind() != constant.Int || constant.Sign(d.Value) == 0 {
		return 0, false
	}
	return constant.Sign(d.Value), true
}

// isAtomicLoad reports whether call is one of sync/atomic's Load functions.
func isAtomicLoad(call ssa.CallInstruction) bool {
	fn := call.Common().StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync/atomic" && fn.Signature.Recv() == nil &&
		strings.HasPrefix(fn.Name(), "Load")
}

// boundAlloc returns the Alloc that pointer v is, directly or as a free
// variable bound to it by the one MakeClosure of each enclosing function
// literal.
func boundAlloc(v ssa.Value) (*ssa.Alloc, bool) {
	for {
		switch x := v.(type) {
		case *ssa.Alloc:
			return x, x.Heap
		case *ssa.FreeVar:
			mc, ok := madeBy(x.Parent())
			if !ok {
				return nil, false
			}
			v = mc.Bindings[slices.Index(x.Parent().FreeVars, x)]
		default:
			return nil, false
		}
	}
}

// madeBy returns the one MakeClosure of function literal fn.
func madeBy(fn *ssa.Function) (*ssa.MakeClosure, bool) {
	if fn.Parent() == nil {
		return nil, false
	}
	var out *ssa.MakeClosure
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == ssa.Value(fn) {
				if out != nil {
					return nil, false
				}
				out = mc
			}
		}
	}
	return out, out != nil
}

// onlyMonotone reports whether every use of v, a view of variable cell
// (cell itself or a free variable bound to it), is a plain load, an atomic
// Load, an atomic Add of a constant of sign, or, for cell, a store in its
// block before every use there that may hand it on; a closure v is bound
// to is checked through its free variable.
func onlyMonotone(v ssa.Value, cell *ssa.Alloc, sign int, uses *counterUses) bool {
	var stores, shares []ssa.Instruction
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if r.Val == v || v != ssa.Value(cell) || r.Block() != cell.Block() {
				return false
			}
			stores = append(stores, r)
			uses.stores = append(uses.stores, r)
		case *ssa.MakeClosure:
			fn := r.Fn.(*ssa.Function)
			for z, bv := range r.Bindings {
				if bv == v && !onlyMonotone(fn.FreeVars[z], cell, sign, uses) {
					return false
				}
			}
			shares = append(shares, r)
		case ssa.CallInstruction:
			s, ok := atomicAddSign(r)
			if !(ok && s == sign || isAtomicLoad(r)) || r.Common().Args[0] != v || slices.Contains(r.Common().Args[1:], v) {
				return false
			}
			if ok {
				uses.adds = append(uses.adds, r)
			}
			shares = append(shares, r)
		default:
			return false
		}
	}
	for _, st := range stores {
		for _, sh := range shares {
			if !pointsto.RunsBefore(st, sh) {
				return false
			}
		}
	}
	return true
}

// allocatedOnce reports whether every object of cell's allocation site is
// Unique: the variable exists at most once in an execution.
func (o *Order) allocatedOnce(cell *ssa.Alloc) bool {
	site, ok := o.allocSites[cell]
	return ok && o.onceSites[site]
}

// findOnceSites records, for each Alloc, its site, and the sites all of
// whose objects are Unique (allocatedOnce).
func (o *Order) findOnceSites(r *pointsto.Result) {
	o.allocSites, o.onceSites = map[*ssa.Alloc]uint32{}, map[uint32]bool{}
	for _, t := range o.f.Tuples("alloc") {
		if cell, ok := o.f.Value(t[0]).(*ssa.Alloc); ok {
			o.allocSites[cell] = t[1]
		}
	}
	many := map[uint32]bool{}
	for t := range r.Tuples("newObj") {
		h, obj := t[1], t[2]
		if !o.unique.Test(uint(obj)) {
			many[h] = true
		} else if !many[h] {
			o.onceSites[h] = true
		}
	}
	for h := range many {
		delete(o.onceSites, h)
	}
}
