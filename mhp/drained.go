package mhp

import (
	"go/token"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// A goroutine drained through its own channel: it is handed a channel
// made anew for its start, which only it closes, and the code that starts
// it receives from the channel until it sees the close. Two shapes: the
// receives are in the function that runs the go statement S (range over
// the channel after S), or that function F returns the channel and every
// caller receives from the result of its call C (a checker: bbolt's
// Tx.Check, called by Commit in a loop and by the check command):
//
//	func (tx *Tx) Check() <-chan error {
//		ch := make(chan error)
//		go func() { defer close(ch); a }()   // S, in F
//		return ch
//	}
//	for err := range tx.Check() { body }     // C and R, in K
//
// Soundness. The branch a receive R takes when it sees the channel closed
// is entered only after the close, which the memory model orders before
// it; the close is the goroutine's, of the channel made for this start
// (each partner of R closes the value S bound, made anew before every run
// of S; in the second shape S runs at most once per call of F, and F
// returns that value). So the goroutine started at S lies inside the
// window from S (or from the start of C) to R. The window closes before
// the function K holding it goes on: every way from S (or C) to a return
// or back to S (or C) passes such a branch, no frame of K's goroutine may
// recover a panic in K (otherwise K's caller could go on while the
// goroutine runs; a panic that is not recovered ends the program, the
// README's assumption), and no call in K may run runtime.Goexit (which
// would run deferred calls while it runs). Then, for the goroutine g's
// access a before its close (the close cannot have run before a in g's
// instance) and an access b:
//
//   - b run by g's single parent p outside every window (not in K after
//     C before R, not in F after S, not in a function called from there,
//     save by a go statement): b runs before the start of C, so before S
//     and a (program order, then the go statement), or after R, so after
//     the close and a;
//   - b run by a goroutine that is not g's parent q, when q is itself
//     drained, closes its channel only after every window of g ends, and
//     b is ordered so with q's whole life: g's instance lies inside q's;
//   - b run by another instance of g, when g has one single parent and no
//     window opens inside a window (F is not called from one, C not
//     reached again): the windows, and the instances in them, come one
//     after another.
//
// The goroutines g starts are not contained: they may outlive g.

// drain is what drainOf decides for one go event: whether its goroutines
// are drained, and where their windows are.
type drain struct {
	ok     bool
	closes []uint32 // the closes a receive R may see
	// ends are the first instructions after the windows, where the
	// receives R go when they see the close.
	ends []ssa.Instruction
	// inside are the functions that may run inside a window, called from
	// a window of K or F (not started by a go statement there).
	inside *bitset.BitSet
	// from: the blocks of K and F inside a window, with the instruction
	// after which the rest of the block is (nil: the whole block).
	from map[*ssa.BasicBlock]ssa.Instruction
	// nested: a window may open inside another one.
	nested bool
}

// drainedPair reports whether access a run by ga and access b run by gb
// are ordered because one of them is run by a drained goroutine (above).
func (o *Order) drainedPair(a ssa.Instruction, ga uint32, b ssa.Instruction, gb uint32) bool {
	return o.drainedBefore(a, ga, b, gb) || o.drainedBefore(b, gb, a, ga)
}

func (o *Order) drainedBefore(a ssa.Instruction, ga uint32, b ssa.Instruction, gb uint32) bool {
	d := o.drainOfGoroutine(ga)
	if d == nil || !o.closedAfter(d, a) {
		return false
	}
	if o.containedApart(ga, d, b, gb, maxNesting) {
		return true
	}
	// Two instances of S's goroutines, each in a window of its own of
	// one single goroutine.
	parents := o.gs.List[ga].Parents
	return !d.nested && len(parents) == 1 && o.gs.List[parents[0]].Single &&
		slices.Equal(o.starts[gb], o.starts[ga]) && slices.Equal(o.gs.List[gb].Parents, parents) && o.closedAfter(d, b)
}

// maxNesting bounds how many drained goroutines, each started inside the
// window of the next, containedApart follows up to b's goroutine.
const maxNesting = 4

// containedApart reports whether b, run by gb, runs outside the life of
// every instance of goroutine g, whose drain is d: before its start or
// after the end of the window it lies in. For each goroutine q that
// starts g: q is gb, single, and b is outside every window; or q is
// drained itself, closes its channel only after each window of g ends,
// and is contained apart from b in turn (g's instance then starts after
// q's and ends before q's close).
func (o *Order) containedApart(g uint32, d *drain, b ssa.Instruction, gb uint32, depth int) bool {
	for _, q := range o.gs.List[g].Parents {
		if q == gb {
			if !o.gs.List[q].Single || o.inWindow(d, b) {
				return false
			}
			continue
		}
		dq := o.drainOfGoroutine(q)
		if dq == nil || depth == 0 || !o.containedApart(q, dq, b, gb, depth-1) {
			return false
		}
		for _, end := range d.ends {
			if !o.closedAfter(dq, end) {
				return false
			}
		}
	}
	return true
}

// drainOfGoroutine returns the drain of the one go statement that starts
// g, or nil if there is none.
func (o *Order) drainOfGoroutine(g uint32) *drain {
	if o.gs.List[g].Kind != GoGoroutine || len(o.starts[g]) != 1 {
		return nil
	}
	if d := o.drainOf(o.starts[g][0]); d.ok {
		return d
	}
	return nil
}

// closedAfter reports whether every close that lets a receive R end its
// window cannot have run before a in g's instance.
func (o *Order) closedAfter(d *drain, a ssa.Instruction) bool {
	may := o.may(a)
	for _, c := range d.closes {
		if may.Test(c) {
			return false
		}
	}
	return true
}

// inWindow reports whether instruction x may run inside one of d's
// windows.
func (o *Order) inWindow(d *drain, x ssa.Instruction) bool {
	if m, ok := o.f.FuncID(x.Parent()); !ok || d.inside.Test(uint(m)) {
		return true
	}
	from, ok := d.from[x.Block()]
	return ok && (from == nil || pointsto.RunsBefore(from, x))
}

// drainOf decides, once per go event s, whether its goroutines are
// drained, and computes their windows.
func (o *Order) drainOf(s uint32) *drain {
	if d, ok := o.drains[s]; ok {
		return d
	}
	d := o.findDrain(s)
	o.drains[s] = d
	return d
}

func (o *Order) findDrain(s uint32) *drain {
	site, ok := o.events[s].instr.(*ssa.Go)
	m := o.events[s].fn
	if !ok || o.goexits[m] {
		return &drain{}
	}
	d := &drain{ok: true, inside: bitset.New(uint(o.f.Size(pointsto.DomM))), from: map[*ssa.BasicBlock]ssa.Instruction{}}
	work, ok := o.drainedWhereStarted(d, site, m)
	if !ok {
		d = &drain{ok: true, inside: d.inside.ClearAll(), from: map[*ssa.BasicBlock]ssa.Instruction{}}
		if work, ok = o.drainedByCallers(d, site, m); !ok {
			return &drain{}
		}
	}
	// Termination: a function is queued only when it joins inside.
	for len(work) > 0 {
		m2 := work[len(work)-1]
		work = work[:len(work)-1]
		for _, i := range o.cg.sites[m2] {
			work = o.calledInside(d, i, work)
		}
	}
	d.nested = d.nested || d.inside.Test(uint(m))
	return d
}

// drainedWhereStarted puts into d the window from go statement site to
// the receives, in its function m, that see the close of a channel made
// anew for each run of site and handed to its goroutine. It returns the
// functions called inside to visit, or false if there is no such window.
func (o *Order) drainedWhereStarted(d *drain, site *ssa.Go, m uint32) ([]uint32, bool) {
	if o.recoverable[m] {
		return nil, false
	}
	var recvs []*ssa.UnOp
	for _, b := range site.Parent().Blocks {
		for _, instr := range b.Instrs {
			if recv, ok := instr.(*ssa.UnOp); ok && recv.Op == token.ARROW && recv.CommaOk {
				recvs = append(recvs, recv)
			}
		}
	}
	closes, ends := o.drainingReceives(recvs, site, func(recv *ssa.UnOp) ssa.Value {
		if ch := storedValue(recv.X, recv); ch != nil && freshAt(ch, site) {
			return ch
		}
		return nil
	})
	blocks, ok := window(site, ends)
	if len(closes) == 0 || !ok {
		return nil, false
	}
	d.closes = closes
	d.addEnds(ends)
	return o.enterWindow(d, site, blocks, nil, nil), true
}

// drainedByCallers puts into d the windows from each call of site's
// function m, which returns the channel it made for site's goroutine, to
// the receives on the call's result that see its close; and the rest of m
// after site. It returns the functions called inside to visit, or false
// if a call has no such window.
func (o *Order) drainedByCallers(d *drain, site *ssa.Go, m uint32) ([]uint32, bool) {
	ch := returnedChannel(site.Parent())
	sites := o.callSitesOf(m)
	if ch == nil || !freshAt(ch, site) || o.repeats(site.Block()) || len(sites) == 0 {
		return nil, false
	}
	calls := map[ssa.Instruction]bool{}
	for _, i := range sites {
		calls[o.f.Call(i)] = true
	}
	var work []uint32
	for _, i := range sites {
		call, ok := o.f.Call(i).(*ssa.Call)
		k := o.f.Caller(i)
		if !ok || o.cg.kind[i] != plainCall || o.recoverable[k] || o.goexits[k] {
			return nil, false
		}
		var recvs []*ssa.UnOp
		for _, ref := range *call.Referrers() {
			if recv, ok := ref.(*ssa.UnOp); ok && recv.Op == token.ARROW && recv.CommaOk {
				recvs = append(recvs, recv)
			}
		}
		closes, ends := o.drainingReceives(recvs, site, func(*ssa.UnOp) ssa.Value { return ch })
		blocks, ok := window(call, ends)
		if len(closes) == 0 || !ok {
			return nil, false
		}
		d.closes = append(d.closes, closes...)
		d.addEnds(ends)
		work = o.enterWindow(d, call, blocks, calls, work)
	}
	return o.enterWindow(d, site, reachedFrom(site.Block()), calls, work), true
}

// addEnds adds the first instructions of the branches ends (by block,
// the index of the successor) to d.ends.
func (d *drain) addEnds(ends map[*ssa.BasicBlock]int) {
	for b, i := range ends {
		d.ends = append(d.ends, b.Succs[i].Instrs[0])
	}
}

// enterWindow adds to d the instructions after from in its block and the
// blocks given, and queues the functions they call. A call of F there
// opens a window inside a window.
func (o *Order) enterWindow(d *drain, from ssa.Instruction, blocks []*ssa.BasicBlock, calls map[ssa.Instruction]bool, work []uint32) []uint32 {
	visit := func(instr ssa.Instruction) {
		d.nested = d.nested || calls[instr]
		if i, ok := o.cg.callOf[instr]; ok {
			work = o.calledInside(d, i, work)
		}
	}
	// The earliest start in a block counts; nil (the whole block) stays.
	if prev, ok := d.from[from.Block()]; !ok || prev != nil && pointsto.RunsBefore(from, prev) {
		d.from[from.Block()] = from
	}
	instrs := from.Block().Instrs
	for _, instr := range instrs[slices.Index(instrs, from)+1:] {
		visit(instr)
	}
	for _, b := range blocks {
		d.from[b] = nil
		for _, instr := range b.Instrs {
			visit(instr)
		}
	}
	return work
}

// calledInside adds the functions call site i may call to d.inside, and
// queues the new ones; the goroutines of a go statement are not the
// drained goroutine's parent.
func (o *Order) calledInside(d *drain, i uint32, work []uint32) []uint32 {
	if o.cg.kind[i] == goCallKind {
		return work
	}
	for _, m := range o.callees(i) {
		if !d.inside.Test(uint(m)) {
			d.inside.Set(uint(m))
			work = append(work, m)
		}
	}
	return work
}

// drainingReceives returns the closes that receives recvs may see, for
// those whose every close closes the channel chOf gives (nil: none), as
// the function go statement site calls was handed it, and the branches
// they take when they see it: by block, the index of the successor.
func (o *Order) drainingReceives(recvs []*ssa.UnOp, site *ssa.Go, chOf func(*ssa.UnOp) ssa.Value) (closes []uint32, ends map[*ssa.BasicBlock]int) {
	ends = map[*ssa.BasicBlock]int{}
	for _, recv := range recvs {
		var own []uint32
		for _, ev := range o.evOf[recv] {
			for _, c := range o.events[ev].cands {
				if o.events[c].close {
					own = append(own, c)
				}
			}
		}
		br := closedIf(recv)
		ch := chOf(recv)
		if br == nil || ch == nil || len(own) == 0 || !o.closesOwn(own, site, ch) {
			continue
		}
		closes = append(closes, own...)
		ends[br.Block()] = 1
	}
	return closes, ends
}

// closedIf returns the If on whether comma-ok receive recv got a value:
// its else branch is taken when the channel is closed.
func closedIf(recv *ssa.UnOp) *ssa.If {
	for _, ref := range *recv.Referrers() {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == 1 {
			for _, ref := range *ext.Referrers() {
				if br, ok := ref.(*ssa.If); ok {
					return br
				}
			}
		}
	}
	return nil
}

// closesOwn reports whether every close in closes closes ch, as the
// function go statement site calls was handed it.
func (o *Order) closesOwn(closes []uint32, site *ssa.Go, ch ssa.Value) bool {
	for _, c := range closes {
		if resolve(sentOn(o.events[c].instr), goBinder(site)) != ch {
			return false
		}
	}
	return true
}

// window returns the blocks of call's function that may run after call
// before a branch of ends (by block, the successor's index) is taken, or
// false if one of them (or the rest of call's block) returns or runs call
// again.
func window(call ssa.Instruction, ends map[*ssa.BasicBlock]int) ([]*ssa.BasicBlock, bool) {
	if _, ok := call.Block().Instrs[len(call.Block().Instrs)-1].(*ssa.Return); ok {
		return nil, false
	}
	var blocks []*ssa.BasicBlock
	seen := map[*ssa.BasicBlock]bool{}
	next := func(b *ssa.BasicBlock, stack []*ssa.BasicBlock) []*ssa.BasicBlock {
		for i, s := range b.Succs {
			if end, ok := ends[b]; !ok || end != i {
				stack = append(stack, s)
			}
		}
		return stack
	}
	// Termination: each block is expanded once.
	for stack := next(call.Block(), nil); len(stack) > 0; {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok || b == call.Block() {
			return nil, false
		}
		blocks = append(blocks, b)
		stack = next(b, stack)
	}
	return blocks, true
}

// reachedFrom returns the blocks reachable from b's successors.
func reachedFrom(b *ssa.BasicBlock) []*ssa.BasicBlock {
	var blocks []*ssa.BasicBlock
	seen := map[*ssa.BasicBlock]bool{}
	// Termination: each block is expanded once.
	for stack := slices.Clone(b.Succs); len(stack) > 0; {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !seen[b] {
			seen[b] = true
			blocks = append(blocks, b)
			stack = append(stack, b.Succs...)
		}
	}
	return blocks
}

// returnedChannel returns the channel, made in fn, that every return of
// fn returns, or nil.
func returnedChannel(fn *ssa.Function) ssa.Value {
	var ch ssa.Value
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return nil
		}
		v := ret.Results[0]
		if conv, ok := v.(*ssa.ChangeType); ok {
			v = conv.X
		}
		v = storedValue(v, ret)
		if v == nil || ch != nil && v != ch {
			return nil
		}
		ch = v
	}
	if _, ok := ch.(*ssa.MakeChan); !ok {
		return nil
	}
	return ch
}
