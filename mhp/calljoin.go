package mhp

import (
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// joinedInCall reports whether access a, run by any instance of goroutine
// g, and access b, run by g's parent gb or by another instance of the go
// statement that starts g (g itself, or g in another context), are
// ordered by a WaitGroup of the activation of the function W that starts
// g, where W may run many times (joined and selfJoined need W to be the
// entry of gb, which runs once):
//
//	func compute(s *stats) {         // W, called twice by main
//		var wg sync.WaitGroup    // v
//		wg.Add(1)
//		go func() { defer wg.Done(); a }()   // S
//		wg.Wait()
//	}
//
// Conditions (actJoin, once per go statement): g is started only by go
// statement S, only by gb, which is single. W is not recursive; no
// function that W or a caller of W (transitively) defers calls recover,
// and none reaches W. An Add of a
// constant greater than zero on a value v fixed in W's activation runs
// before S on every path; every path from S to a return of W (or to S
// again, for two instances of g) passes a Wait on v, or a Wait on v is
// deferred before S; each such Wait may be released by a Done of g that
// cannot have run before a (and b, for two instances) in g's instance.
// For gb, b's function is not reached from a deferred call of those
// callers, not W's callee, and if it is W, no path from S to b avoids the
// Waits.
//
// Why this holds. gb runs W's activations one after another, none inside
// another. An activation that ran S before b has returned before b: it
// is not in progress at b (b is not inside W, or is after its Waits), and
// it did not end by a panic or runtime.Goexit, which nothing on gb's stack
// can recover from (recover stops a panic only when a deferred function
// calls it), so gb would have ended, running at most deferred calls that
// reach neither b nor W. It returned past a Wait on its v, which
// counted the instance at S's Add before (the WaitGroup rule of its
// documentation, as the other WaitGroup rules assume: the Done answering
// that Add is the instance's own), so the instance's Done, after a,
// happened before that Wait returned, before b. An activation that runs S
// after b starts its instance after b. Two instances of g come from two
// activations, the earlier returned before the later ran S, or from one
// activation with a Wait between the two runs of S; in both, the earlier
// instance's access comes before the later one's start.
func (o *Order) joinedInCall(a ssa.Instruction, g uint32, b ssa.Instruction, gb uint32) bool {
	gr := &o.gs.List[g]
	if gr.Kind != GoGoroutine || len(gr.Parents) != 1 || !o.gs.List[gr.Parents[0]].Single {
		return false
	}
	site, ok := o.starter(g)
	if !ok {
		return false
	}
	j := o.actJoin(site)
	if j == nil || !j.releasedAfter(o, g, a) {
		return false
	}
	if sb, ok := o.starter(gb); ok && sb == site && slices.Equal(o.gs.List[gb].Parents, gr.Parents) {
		return j.againJoined && j.releasedAfter(o, gb, b) // instances of S, in one context or two
	}
	if gr.Parents[0] != gb {
		return false
	}
	m, ok := o.f.FuncID(b.Parent())
	if !ok || j.deferredReach.Test(uint(m)) || j.calleeReach.Test(uint(m)) {
		return false
	}
	return b.Parent() != site.Parent() || !unjoinedPath(site, j.waits, func(x ssa.Instruction) bool { return x == b || j.remade(x) })
}

// starter returns S for joinedInCall: the go statement that alone starts
// goroutine g, or, when that is the one inside sync.WaitGroup.Go, the one
// call of Go that starts g in its context (Go's go statement is one for
// all its callers).
func (o *Order) starter(g uint32) (ssa.Instruction, bool) {
	s, ok := o.goEventOf(g)
	if !ok {
		return nil, false
	}
	site := o.events[s].instr
	if fn := site.Parent(); fn.Name() != "Go" || !isWaitGroupFunc(fn) {
		return site, true
	}
	var call ssa.Instruction
	for _, i := range o.callSitesOf(o.funcIDOf(site.Parent())) {
		if !slices.Contains(o.spawnerCtxs[i], o.gs.List[g].Ctx) {
			continue
		}
		if call != nil || o.cg.kind[i] != plainCall {
			return nil, false
		}
		call = o.f.Call(i)
	}
	return call, call != nil
}

// activationJoin is what joinedInCall decides for one go statement.
type activationJoin struct {
	waits         map[ssa.Instruction]uint32 // the Waits on v in W, to their events
	remade        func(ssa.Instruction) bool // whether the instruction makes v anew
	againJoined   bool                       // every path from S back to S passes one
	deferredReach *bitset.BitSet             // by M: reached from a deferred call of W or its callers
	calleeReach   *bitset.BitSet             // by M: reached from W (W too)
}

// releasedAfter reports whether every Wait of j completes only after a,
// in the instance of g it joins.
func (j *activationJoin) releasedAfter(o *Order, g uint32, a ssa.Instruction) bool {
	may := o.may(a)
	for _, w := range j.waits {
		if !o.releasedBy(w, g, may) {
			return false
		}
	}
	return true
}

// actJoin returns joinedInCall's conditions on S, site, or nil if they
// fail; decided once per S.
func (o *Order) actJoin(site ssa.Instruction) *activationJoin {
	if j, ok := o.actJoins[site]; ok {
		return j
	}
	if o.actJoins == nil {
		o.actJoins = map[ssa.Instruction]*activationJoin{}
	}
	j := o.newActJoin(site)
	o.actJoins[site] = j
	return j
}

func (o *Order) newActJoin(site ssa.Instruction) *activationJoin {
	w := site.Parent()
	m, ok := o.f.FuncID(w)
	if !ok {
		return nil
	}
	callers := o.reach([]uint32{m}, o.callerFuncs)
	if callers.Test(uint(m)) {
		return nil // recursive: W reaches itself
	}
	callers.Set(uint(m))
	var deferred []uint32
	for c, ok := callers.NextSet(0); ok; c, ok = callers.NextSet(c + 1) {
		for _, i := range o.cg.sites[c] {
			if o.cg.kind[i] != deferCallKind {
				continue
			}
			if _, ok := o.f.Call(i).Common().Value.(*ssa.Builtin); ok {
				continue // close, say: recover recovers only when a deferred function calls it
			}
			callees := o.callees(i)
			if len(callees) == 0 || slices.ContainsFunc(callees, func(d uint32) bool { fn := o.f.Func(d); return fn == nil || callsRecover(fn) }) {
				return nil // a panic may be recovered from, past S
			}
			deferred = append(deferred, callees...)
		}
	}
	deferredReach := o.reach(deferred, o.calleeFuncs)
	for _, d := range deferred {
		deferredReach.Set(uint(d))
	}
	if deferredReach.Test(uint(m)) {
		return nil
	}
	for _, v := range o.waitedValues(w) {
		if !o.addedBeforeSite(v, site) {
			continue
		}
		waits, deferredWait := o.waitsOnValue(w, v, site)
		// A path that runs v's allocation again reaches Waits on
		// another WaitGroup: it counts as reaching the goal.
		alloc, _ := v.(*ssa.Alloc)
		remade := func(x ssa.Instruction) bool { return alloc != nil && x == ssa.Instruction(alloc) }
		isReturn := func(x ssa.Instruction) bool { _, ok := x.(*ssa.Return); return ok || remade(x) }
		if len(waits) == 0 || !deferredWait && unjoinedPath(site, waits, isReturn) {
			continue
		}
		calleeReach := o.reach([]uint32{m}, o.calleeFuncs)
		calleeReach.Set(uint(m))
		return &activationJoin{
			waits:         waits,
			remade:        remade,
			againJoined:   !unjoinedPath(site, waits, func(x ssa.Instruction) bool { return x == site || remade(x) }),
			deferredReach: deferredReach,
			calleeReach:   calleeReach,
		}
	}
	return nil
}

// waitedValues returns the values that a Wait event of w waits on, in
// event order: values fixed in w's activation, and variables of w (an
// Alloc in a loop makes a new WaitGroup in each iteration; the paths
// joinedInCall follows end where it runs again).
func (o *Order) waitedValues(w *ssa.Function) []ssa.Value {
	var vs []ssa.Value
	for _, ev := range o.fnEvents(w, evWait) {
		call, ok := o.events[ev].instr.(ssa.CallInstruction)
		if !ok || !isWaitMethod(call.Common().StaticCallee()) {
			continue
		}
		v := call.Common().Args[0]
		if _, isAlloc := v.(*ssa.Alloc); (isAlloc || o.fixedInActivation(v)) && !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	return vs
}

// addedBeforeSite reports whether an Add of a constant greater than zero
// on v runs before S, site, on every path: S is a call of WaitGroup.Go on
// v, which adds before it starts the goroutine, or an Add runs before it.
func (o *Order) addedBeforeSite(v ssa.Value, site ssa.Instruction) bool {
	if call, ok := site.(*ssa.Call); ok && call.Call.Args[0] == v {
		return true
	}
	for _, ev := range o.fnEvents(site.Parent(), evAdd) {
		add := o.events[ev].instr
		if call, ok := add.(*ssa.Call); !ok || call.Call.Args[0] != v || !positiveDelta(add) {
			continue
		}
		if o.fixedInActivation(v) {
			if pointsto.RunsBefore(add, site) {
				return true
			}
			continue
		}
		// v is made anew in a loop: the Add is on the WaitGroup that S's
		// goroutine is counted on when v is not made between them.
		b := site.Block()
		if i, k := slices.Index(b.Instrs, add), slices.Index(b.Instrs, site); add.Block() == b && i < k &&
			!slices.Contains(b.Instrs[i:k], ssa.Instruction(v.(*ssa.Alloc))) {
			return true
		}
	}
	return false
}

// waitsOnValue returns the calls of Wait on v in w, to their events, and
// whether a deferred one runs before site on every path (so that it runs
// at every return after site).
func (o *Order) waitsOnValue(w *ssa.Function, v ssa.Value, site ssa.Instruction) (map[ssa.Instruction]uint32, bool) {
	waits := map[ssa.Instruction]uint32{}
	deferred := false
	for _, ev := range o.fnEvents(w, evWait) {
		instr := o.events[ev].instr
		call, ok := instr.(ssa.CallInstruction)
		if !ok || !isWaitMethod(call.Common().StaticCallee()) || call.Common().Args[0] != v {
			continue
		}
		waits[instr] = ev
		if _, ok := instr.(*ssa.Defer); ok && pointsto.RunsBefore(instr, site) {
			deferred = true
		}
	}
	return waits, deferred
}

// unjoinedPath reports whether a path of from's function leads from from
// to an instruction that goal accepts without passing a call in waits (a
// deferred call does not wait where it stands).
func unjoinedPath(from ssa.Instruction, waits map[ssa.Instruction]uint32, goal func(ssa.Instruction) bool) bool {
	// scan follows the path through b from instruction k; it reports
	// whether the goal is met before a Wait, and whether the path goes on.
	scan := func(b *ssa.BasicBlock, k int) (met, on bool) {
		for _, x := range b.Instrs[k:] {
			if goal(x) {
				return true, false
			}
			if _, ok := waits[x]; ok {
				if _, deferred := x.(*ssa.Defer); !deferred {
					return false, false
				}
			}
		}
		return false, true
	}
	start := from.Block()
	met, on := scan(start, slices.Index(start.Instrs, from)+1)
	if met || !on {
		return met
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := slices.Clone(start.Succs)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		met, on := scan(b, 0)
		if met {
			return true
		}
		if on {
			stack = append(stack, b.Succs...)
		}
	}
	return false
}

// reach returns the functions (M) reached from those of from in one or
// more steps of next.
func (o *Order) reach(from []uint32, next func(uint32) []uint32) *bitset.BitSet {
	out := bitset.New(uint(o.f.Size(pointsto.DomM)))
	stack := slices.Clone(from)
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range next(m) {
			if !out.Test(uint(n)) {
				out.Set(uint(n))
				stack = append(stack, n)
			}
		}
	}
	return out
}

// calleeFuncs returns the functions m calls by plain or deferred calls.
func (o *Order) calleeFuncs(m uint32) []uint32 {
	var out []uint32
	for _, i := range o.cg.sites[m] {
		if o.cg.kind[i] != goCallKind {
			out = append(out, o.callees(i)...)
		}
	}
	return out
}

// callerFuncs returns the functions that call m by plain or deferred
// calls.
func (o *Order) callerFuncs(m uint32) []uint32 {
	var out []uint32
	for _, i := range o.callSitesOf(m) {
		if o.cg.kind[i] != goCallKind {
			out = append(out, o.f.Caller(i))
		}
	}
	return out
}

// callsRecover reports whether fn calls the builtin recover.
func callsRecover(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "recover" {
					return true
				}
			}
		}
	}
	return false
}
