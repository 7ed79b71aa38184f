package mhp

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// BeforeHandover returns the accesses of fn that touch an object allocated
// in the same activation (a variable, a composite literal, new, make of a
// map) before that activation can have handed the object on:
//
//	resp := &Response{Request: req}
//	if line, err = tp.ReadLine(); err != nil {
//		return nil, err
//	}
//	resp.Status = line          // before the hand-over, in another block
//	ch <- resp                  // the hand-over: a send, here
//	resp.Close = true           // after it: paired as usual
//
// The hand-overs are the uses of the object's address, or of an address
// inside it, other than to load and store through it and to read, write
// or delete its map entries: a send, a close, a store of the address,
// an argument of a go or deferred statement, or of a call but a plain
// static call of a function whose parameter keeps it (keeps), a closure
// binding, an interface, a return, a phi. An access is before the hand-over when no path of the
// function's CFG leads from a hand-over to it without running the
// allocation again (which makes a new object, the one the access then
// touches), and it is not in or after the block that a recovered panic
// resumes in (a panic may come from anywhere).
//
// Why this holds. In one activation, the access touches the object the
// allocation made last before it, and nothing can have handed that object
// on before the access: other goroutines hold no pointer to it yet, and
// get one only through a hand-over that the access comes before in its
// goroutine. A goroutine that touches the object later got the pointer
// from that hand-over through a chain of stores, loads, sends and
// receives: a send or close happens before the receive that gets it, an
// atomic store before the load that reads it, a go statement before the
// goroutine; a plain store and a load of another goroutine are ordered by
// some synchronization, or race themselves, and that race is reported (the
// assumption in README's Soundness for accesses to fresh objects). So the
// access happens before every access of another goroutine to the object,
// and is never paired. This is the Go memory model's send before the
// completing receive (and close before the receive that sees it) for an
// object made and filled by a sender and handed over by the send; the
// sender's accesses after the send, an object sent twice, or one stored in
// a shared field before it is filled, stay paired. It also keeps the
// per-iteration copies of loop variables (for i := range n { go func() {
// use(i) }() }), which one abstract object stands for, and composite
// literals made in a loop from racing with the goroutines of earlier
// iterations.
func (hs *Handovers) BeforeHandover(fn *ssa.Function) map[ssa.Instruction]bool {
	out := map[ssa.Instruction]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr.(type) {
			case *ssa.Alloc, *ssa.MakeMap:
				hs.markBefore(out, instr.(ssa.Value), instr)
			}
		}
	}
	return out
}

// markBefore adds to out the accesses to the object that v holds, through
// v and the addresses inside it, that no hand-over of it can precede since
// allocation alloc ran (nil: since the function's entry, for a parameter).
func (hs *Handovers) markBefore(out map[ssa.Instruction]bool, v ssa.Value, alloc ssa.Instruction) {
	accesses, handovers := hs.objectUses(v)
	if len(accesses) == 0 {
		return
	}
	handed := hs.handedSince(alloc, handovers)
	for _, acc := range accesses {
		if !afterRecover(acc) && !handed.before(acc) {
			out[acc] = true
		}
	}
}

// Handovers answers BeforeHandover for the functions of one program,
// remembering which parameters of the functions called keep the object
// they point to (keeps).
type Handovers struct {
	kept map[*ssa.Parameter]int8 // 1 keeps, -1 may hand on, 0 being decided
	// at is the index in its block of each instruction of the long blocks
	// asked about: an init function's one block holds thousands of
	// allocations, each with accesses and hand-overs in that block.
	at map[ssa.Instruction]int
}

// NewHandovers returns a Handovers that has decided nothing yet.
func NewHandovers() *Handovers {
	return &Handovers{kept: map[*ssa.Parameter]int8{}, at: map[ssa.Instruction]int{}}
}

// index returns x's index in its block.
func (hs *Handovers) index(x ssa.Instruction) int {
	instrs := x.Block().Instrs
	if len(instrs) <= 32 {
		return slices.Index(instrs, x)
	}
	k, ok := hs.at[x]
	if !ok {
		for j, y := range instrs {
			hs.at[y] = j
		}
		k = hs.at[x]
	}
	return k
}

// keeps reports whether parameter k of fn never hands the object it points
// to on: every use is an access, or an argument of a plain static call
// whose parameter keeps it. A call of fn with the object is then no
// hand-over. A parameter that reaches itself through calls (recursion)
// counts as handing on while it is decided.
func (hs *Handovers) keeps(fn *ssa.Function, k int) bool {
	if len(fn.Blocks) == 0 || k >= len(fn.Params) {
		return false
	}
	p := fn.Params[k]
	if v, ok := hs.kept[p]; ok {
		return v > 0
	}
	hs.kept[p] = 0
	_, handovers := hs.objectUses(p)
	hs.kept[p] = -1
	if len(handovers) == 0 {
		hs.kept[p] = 1
	}
	return len(handovers) == 0
}

// objectUses sorts the uses of the object that v holds (an allocation or a
// parameter), through v and the addresses inside it (field and array
// element addresses): the accesses (loads and stores through them, map
// reads, writes, len, delete and clear) and the hand-overs (every other
// use but a plain static call whose parameters keep it).
func (hs *Handovers) objectUses(v ssa.Value) (accesses, handovers []ssa.Instruction) {
	inside := map[ssa.Value]bool{v: true}
	var walk func(x ssa.Value)
	walk = func(x ssa.Value) {
		for _, ref := range *x.Referrers() {
			switch r := ref.(type) {
			case *ssa.DebugRef:
				continue
			case *ssa.FieldAddr:
				inside[r] = true
				walk(r)
				continue
			case *ssa.IndexAddr: // of an array inside the object
				inside[r] = true
				walk(r)
				continue
			case *ssa.UnOp:
				if r.Op == token.MUL {
					accesses = append(accesses, r)
					continue
				}
			case *ssa.Store:
				if !inside[r.Val] {
					accesses = append(accesses, r)
					continue
				}
				if cell := ownCell(r); cell != nil {
					// The cell holds this object for its whole life: its
					// loads are the object, its other uses hand it on.
					for _, use := range *cell.Referrers() {
						if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL {
							inside[load] = true
							walk(load)
						} else if use != ssa.Instruction(r) {
							if _, ok := use.(*ssa.DebugRef); !ok {
								handovers = append(handovers, use)
							}
						}
					}
					continue
				}
			case *ssa.MapUpdate:
				if r.Map == x && r.Key != x && r.Value != x {
					accesses = append(accesses, r)
					continue
				}
			case *ssa.Lookup:
				if r.X == x {
					accesses = append(accesses, r)
					continue
				}
			case *ssa.Range:
				accesses = append(accesses, r)
				continue
			case *ssa.Call:
				if mapBuiltin(r) && r.Call.Args[0] == x && !slices.Contains(r.Call.Args[1:], x) {
					accesses = append(accesses, r)
					continue
				}
				if hs.keptBy(r, inside) {
					continue
				}
			}
			handovers = append(handovers, ref)
		}
	}
	walk(v)
	return accesses, handovers
}

// ownCell returns the variable that store s fills when s is the only
// store into it and runs once per instance of the variable: an Alloc of
// s's block, before s (go/ssa's cell for a variable a closure captures,
// p := &T{} in a loop body). Each instance then holds one value for its
// whole life, whatever stores run into other instances; nil otherwise.
func ownCell(s *ssa.Store) *ssa.Alloc {
	cell, ok := s.Addr.(*ssa.Alloc)
	if !ok || cell.Block() != s.Block() || slices.Index(s.Block().Instrs, ssa.Instruction(cell)) > slices.Index(s.Block().Instrs, ssa.Instruction(s)) {
		return nil
	}
	for _, use := range *cell.Referrers() {
		if st, ok := use.(*ssa.Store); ok && st != s {
			return nil
		}
	}
	return cell
}

// keptBy reports whether plain call hands the object, whose address and
// addresses inside are inside, only to parameters of a static callee that
// keep it.
func (hs *Handovers) keptBy(call *ssa.Call, inside map[ssa.Value]bool) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return false
	}
	for k, arg := range call.Call.Args {
		if inside[arg] && !hs.keeps(callee, k) {
			return false
		}
	}
	return true
}

// handedAt tells where, in one activation, a hand-over may have run with
// no run of the allocation since: the blocks a path from a hand-over's
// block leads to without entering the allocation's block (entering it runs
// the allocation, which makes the object later instructions touch), and in
// the hand-overs' own blocks, what follows the first of them.
type handedAt struct {
	hs     *Handovers
	blocks map[*ssa.BasicBlock]bool
	first  map[*ssa.BasicBlock]int
}

// handedSince returns where the hand-overs may have run since allocation
// alloc (nil: since the function's entry, for a parameter's object).
func (hs *Handovers) handedSince(alloc ssa.Instruction, handovers []ssa.Instruction) handedAt {
	h := handedAt{hs: hs, blocks: map[*ssa.BasicBlock]bool{}, first: map[*ssa.BasicBlock]int{}}
	var avoid *ssa.BasicBlock
	if alloc != nil {
		avoid = alloc.Block()
	}
	var stack []*ssa.BasicBlock
	for _, x := range handovers {
		b := x.Block()
		if k, ok := h.first[b]; !ok || hs.index(x) < k {
			h.first[b] = hs.index(x)
		}
		stack = append(stack, b.Succs...)
	}
	// Termination: a block is pushed only when it joins blocks.
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b != avoid && !h.blocks[b] {
			h.blocks[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return h
}

// before reports whether a hand-over may have run before x.
func (h handedAt) before(x ssa.Instruction) bool {
	b := x.Block()
	k, ok := h.first[b]
	return h.blocks[b] || ok && k < h.hs.index(x)
}

// afterRecover reports whether x may run after its function resumes from a
// recovered panic: in the Recover block or one it leads to.
func afterRecover(x ssa.Instruction) bool {
	r := x.Parent().Recover
	return r != nil && pointsto.ReachesAvoiding(r, x.Block(), nil)
}

// handedLater reports whether access x touches, through a parameter of its
// function, an object that every call of the function passes before the
// caller can have handed it on (freshParam), before the function itself
// can have handed it on: the callees' half of BeforeHandover (a constructor
// that fills its new object through methods), with the same argument. The
// call runs in the caller's goroutine while the caller waits, so the
// object is still out of other goroutines' reach when x runs.
func (o *Order) handedLater(x ssa.Instruction) bool {
	fn := x.Parent()
	before, ok := o.paramsBefore[fn]
	if !ok {
		before = map[ssa.Instruction]bool{}
		for k, p := range fn.Params {
			if o.freshParam(fn, k) {
				o.handovers.markBefore(before, p, nil)
			}
		}
		o.paramsBefore[fn] = before
	}
	return before[x]
}

// freshParam reports whether every call that may call fn is a plain static
// call of fn whose argument k points into an object its caller holds
// before it can have handed it on (passedFresh). Call sites come from the
// call graph, which has the calls through interfaces and function values
// too. A parameter bound, through calls, to itself (recursion) counts as
// not fresh while it is decided.
func (o *Order) freshParam(fn *ssa.Function, k int) bool {
	p := fn.Params[k]
	if v, ok := o.freshParams[p]; ok {
		return v
	}
	o.freshParams[p] = false
	m, ok := o.f.FuncID(fn)
	sites := o.callSitesOf(m)
	fresh := ok && len(sites) > 0
	for _, i := range sites {
		call, isCall := o.f.Call(i).(*ssa.Call)
		if !fresh || !isCall || call.Call.IsInvoke() || call.Call.StaticCallee() != fn || !o.passedFresh(call.Call.Args[k], call) {
			fresh = false
			break
		}
	}
	o.freshParams[p] = fresh
	return fresh
}

// passedFresh reports whether v, an argument of call, is the address of an
// object, or an address inside it, that call's activation allocated, or
// that a fresh parameter of it points to, and that no hand-over there can
// precede the call (since the allocation), nor a recovered panic.
func (o *Order) passedFresh(v ssa.Value, call ssa.Instruction) bool {
	var alloc ssa.Instruction
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
			continue
		case *ssa.IndexAddr:
			if _, isArray := x.X.Type().Underlying().(*types.Pointer); isArray {
				v = x.X
				continue
			}
			return false
		case *ssa.Alloc:
			alloc = x
		case *ssa.MakeMap:
			alloc = x
		case *ssa.Parameter:
			if !o.freshParam(x.Parent(), slices.Index(x.Parent().Params, x)) {
				return false
			}
		default:
			return false
		}
		break
	}
	_, handovers := o.handovers.objectUses(v)
	return !afterRecover(call) && !o.handovers.handedSince(alloc, handovers).before(call)
}
