package mhp

import (
	"go/token"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// joinedPair reports whether access a run by ga and b run by gb are
// ordered by an event that joins goroutines started in a loop (a Wait, or
// a receive from a channel of the run's own): see joined, selfJoined and
// waitedFor.
func (o *Order) joinedPair(a ssa.Instruction, ga uint32, b ssa.Instruction, gb uint32) bool {
	return o.joined(a, ga, b, gb) || o.joined(b, gb, a, ga) || o.selfJoined(a, b, ga, gb) ||
		o.joinedInCall(a, ga, b, gb) || o.joinedInCall(b, gb, a, ga) ||
		o.waitedFor(a, ga, b, gb) || o.waitedFor(b, gb, a, ga) || o.chained(a, ga, b, gb)
}

// chained reports whether the instances of ga and gb lie on one chain in
// which each instance starts the next after its access (a callback that
// re-arms itself: f := func() { a; time.AfterFunc(d, f) }). The set S
// holds ga, gb, and the goroutines that run a go event starting a member
// of S at most once per instance (oncePerInstance). The go events that
// start members of S from outside it must run at most once in all (in
// each program): one event, run by one single goroutine, at most once. Each member runs at
// most one go event that starts members, at most once per instance, and
// ga and gb run it after a and b on every path. Then
// the instances form one chain from one first instance, and of two
// instances the earlier one's access comes before the go event that leads
// to the later one.
//
// Only the last condition depends on a and b: the rest is decided once per
// pair of goroutines (chainOf), and once per set S (chainOfMembers).
func (o *Order) chained(a ssa.Instruction, ga uint32, b ssa.Instruction, gb uint32) bool {
	if o.goroutinePair(ga, gb)&pairChainable == 0 {
		return false
	}
	c := o.chainOf(ga, gb)
	// The next instance may start before the access.
	if e, ok := c.inside[ga]; ok && o.may(a).Test(e) {
		return false
	}
	if e, ok := c.inside[gb]; ok && o.may(b).Test(e) {
		return false
	}
	return true
}

// chain is what chained decides for a set S of goroutines: whether it
// forms one chain, and the go event each member runs that starts members.
type chain struct {
	ok     bool
	inside map[uint32]uint32 // member -> the go event it runs that starts members
}

// chainOf decides chained's conditions that do not depend on the accesses,
// for the pair {ga, gb}. S is the union of the chain closures of ga and gb
// (chainClosure): the rule that adds a goroutine looks at one member only.
// Goroutines on one ring share their closure, so the check is kept per
// pair of distinct closures: a pair of goroutines then costs two lookups,
// not a union and a pass over S's starts.
func (o *Order) chainOf(ga, gb uint32) *chain {
	ca, cb := o.chainClosure(ga), o.chainClosure(gb)
	key := [2]uint32{min(ca, cb), max(ca, cb)}
	if c, ok := o.chains[key]; ok {
		return c
	}
	c := o.chainOfMembers(o.closureSets[ca].Union(o.closureSets[cb]))
	o.chains[key] = c
	return c
}

// chainOfMembers checks chained's conditions on the starts of the set S,
// members.
func (o *Order) chainOfMembers(members *bitset.BitSet) *chain {
	type start struct{ e, p uint32 }
	outside := map[int][]start{}  // by program: the starts from outside S
	inside := map[uint32]uint32{} // member -> the go event it runs that starts members
	for g, ok := members.NextSet(0); ok; g, ok = members.NextSet(g + 1) {
		if o.gs.List[g].Kind != GoGoroutine {
			return &chain{}
		}
		for _, e := range o.starts[g] {
			ev := &o.events[e]
			for _, p := range o.gs.List[g].Parents {
				o.work++
				if !slices.Contains(o.gs.Of(ev.fn), p) {
					continue // p starts g through another event
				}
				if !o.oncePerInstance(ev.instr, p) {
					return &chain{}
				}
				if !members.Test(uint(p)) {
					if !o.gs.List[p].Single {
						return &chain{}
					}
					for _, prog := range o.gs.List[p].Programs {
						if !slices.Contains(outside[prog], start{e, p}) {
							outside[prog] = append(outside[prog], start{e, p})
						}
					}
					continue
				}
				if prev, ok := inside[p]; ok && prev != e {
					return &chain{}
				}
				inside[p] = e
			}
		}
	}
	for _, starts := range outside {
		if len(starts) > 1 {
			return &chain{}
		}
	}
	return &chain{ok: true, inside: inside}
}

// chainClosure returns the least set that holds g and every goroutine of
// kind GoGoroutine that runs, at most once per instance, a go event
// starting a member, as an index into closureSets (equal sets, one index).
// Termination: a worklist that only adds goroutines not yet in the set,
// so each goroutine is expanded at most once; the work is at most the sum
// over goroutines of starts times parents.
func (o *Order) chainClosure(g uint32) uint32 {
	if id, ok := o.closureOf[g]; ok {
		return id
	}
	members := bitset.New(uint(len(o.gs.List))).Set(uint(g))
	for work := []uint32{g}; len(work) > 0; {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range o.starts[m] {
			ev := &o.events[e]
			for _, p := range o.gs.List[m].Parents {
				o.work++
				if !members.Test(uint(p)) && o.gs.List[p].Kind == GoGoroutine && slices.Contains(o.gs.Of(ev.fn), p) && o.oncePerInstance(ev.instr, p) {
					members.Set(uint(p))
					work = append(work, p)
				}
			}
		}
	}
	key := appendWords(nil, members)
	id, ok := o.closureIDs[string(key)]
	if !ok {
		id = uint32(len(o.closureSets))
		o.closureSets = append(o.closureSets, members)
		o.closureIDs[string(key)] = id
	}
	o.closureOf[g] = id
	return id
}

// oncePerInstance reports whether instruction x runs at most once in each
// instance of goroutine g: x is not in a loop, and its function is g's
// entry function or is called, of the functions g runs, only from one call
// site in g's entry function, not in a loop.
func (o *Order) oncePerInstance(x ssa.Instruction, g uint32) bool {
	key := onceKey{x, g}
	if v, ok := o.perInstance[key]; ok {
		return v
	}
	v := o.runsOncePerInstance(x, g)
	o.perInstance[key] = v
	return v
}

type onceKey struct {
	x ssa.Instruction
	g uint32
}

func (o *Order) runsOncePerInstance(x ssa.Instruction, g uint32) bool {
	o.work++
	entry := o.entryOf(g)
	if entry == nil || o.repeats(x.Block()) {
		return false
	}
	fn := x.Parent()
	if fn == entry {
		return true
	}
	m, ok := o.f.FuncID(fn)
	if !ok {
		return false
	}
	var from []uint32
	for _, i := range o.callSitesOf(m) {
		if slices.Contains(o.gs.Of(o.f.Caller(i)), g) {
			from = append(from, i)
		}
	}
	if len(from) != 1 || o.cg.kind[from[0]] != plainCall {
		return false
	}
	call := o.f.Call(from[0])
	return call.Parent() == entry && !o.repeats(call.Block())
}

// callSitesOf returns the call sites that may call function m.
func (o *Order) callSitesOf(m uint32) []uint32 {
	if o.callSites == nil {
		o.callSites = map[uint32][]uint32{}
		for _, sites := range o.cg.sites {
			for _, i := range sites {
				for _, callee := range o.callees(i) {
					o.callSites[callee] = append(o.callSites[callee], i)
				}
			}
		}
	}
	return o.callSites[m]
}

// selfJoined reports whether two instances of goroutine g, running a and
// b, are ordered: g is started by a go statement S in the entry function
// of the single goroutine that alone starts it, every way from S back to
// itself passes an event that joins g (see joiningEvents), and those
// events complete after a and after b in the instance they join. Of two
// instances, the earlier one's access comes before its join, which comes
// before the later one's start.
func (o *Order) selfJoined(a, b ssa.Instruction, g, gb uint32) bool {
	gr := &o.gs.List[g]
	if g != gb || gr.Kind != GoGoroutine || len(gr.Parents) != 1 || !o.gs.List[gr.Parents[0]].Single {
		return false
	}
	s, ok := o.goEventOf(g)
	if !ok {
		return false
	}
	site := o.events[s].instr
	return o.entryOf(gr.Parents[0]) == site.Parent() && !o.pendingAt(site).Test(uint(s)) &&
		o.releasedAfter(s, g, a) && o.releasedAfter(s, g, b)
}

// joined reports whether access a, run by any instance of goroutine g, and
// access b, run by goroutine gb, are ordered by a WaitGroup that joins the
// instances of g in loops, such as
//
//	for round := ... {
//		wg.Add(n)
//		for i := ... { go func() { a; wg.Done() }() }
//		wg.Wait()
//		b
//	}
//
// Conditions: gb is single and is the only goroutine that starts g, by a
// go statement S in gb's entry function, which also holds b; an Add on a
// WaitGroup completes before S on every path; on every path from S to b a
// Wait on that WaitGroup runs (S is not pending at b); and each such Wait
// may be released by a Done of g that cannot have run before a in g's
// instance. Then an instance started before b was counted by its Add
// before the Wait that follows its start, so that Wait returns after the
// instance's Done, which follows a; and an instance started after b
// starts after b. This assumes, as the other WaitGroup rules do, that each
// instance's Done answers its own Add.
func (o *Order) joined(a ssa.Instruction, g uint32, b ssa.Instruction, gb uint32) bool {
	gr := &o.gs.List[g]
	parent := &o.gs.List[gb]
	if gr.Kind != GoGoroutine || !parent.Single || len(gr.Parents) != 1 || gr.Parents[0] != gb {
		return false
	}
	goEv, ok := o.goEventOf(g)
	if !ok {
		return false
	}
	site := o.events[goEv].instr
	fn := site.Parent()
	if b.Parent() != fn || o.entryOf(gb) != fn {
		return false
	}
	if len(o.joiningEvents(goEv)) == 0 || o.pendingAt(b).Test(uint(goEv)) {
		return false
	}
	return o.releasedAfter(goEv, g, a)
}

// releasedAfter reports whether every event that joins go statement event
// s completes only after a, in the instance of goroutine g it joins.
func (o *Order) releasedAfter(s, g uint32, a ssa.Instruction) bool {
	may := o.may(a)
	for _, j := range o.joiningEvents(s) {
		if !o.releasedBy(j, g, may) {
			return false
		}
	}
	return true
}

// releasedBy reports whether join event j completes only after a partner
// in g outside may (the events that may have run before the access in g's
// instance): a Wait, after a Done of g (the one answering the instance's
// Add); a receive, after whichever of its partners it takes, all of them
// in g (see joiningEvents).
func (o *Order) releasedBy(j, g uint32, may maySet) bool {
	ev := &o.events[j]
	if ev.kind == evWait {
		for _, d := range ev.cands {
			if o.events[d].kind == evDone && !may.Test(d) && slices.Contains(o.gs.Of(o.events[d].fn), g) {
				return true
			}
		}
		return false
	}
	for _, c := range ev.cands {
		if may.Test(c) {
			return false
		}
	}
	return len(ev.cands) > 0
}

// waitedFor reports whether access b, run by goroutine gb, follows a Wait
// that waits for every instance of goroutine g, after its access a:
//
//	wg.Add(n)
//	for ... { go func() { a; wg.Done() }() }   // S
//	for ... { go func() { wg.Wait(); b }() }   // T
//
// Conditions: g and gb are started by go statements S and T in the entry
// function of the single goroutine that alone starts both; a run of S
// follows a run of T only after an event that joins T's goroutine past b
// (see joiningEvents); an Add on the Wait's WaitGroup completes before S on
// every path; the Wait completes before b on every path of gb; and a Done
// of g that cannot have run before a may release it. Every instance of g
// then started, and was counted, before the Wait began, so the Wait
// returns after the instance's Done, which follows a. This assumes, as the
// other WaitGroup rules do, that each instance's Done answers its own Add.
func (o *Order) waitedFor(a ssa.Instruction, g uint32, b ssa.Instruction, gb uint32) bool {
	gr, wr := &o.gs.List[g], &o.gs.List[gb]
	if gr.Kind != GoGoroutine || wr.Kind != GoGoroutine || len(gr.Parents) != 1 ||
		!slices.Equal(gr.Parents, wr.Parents) || !o.gs.List[gr.Parents[0]].Single {
		return false
	}
	s, ok1 := o.goEventOf(g)
	t, ok2 := o.goEventOf(gb)
	if !ok1 || !ok2 {
		return false
	}
	spawn, waiter := o.events[s].instr, o.events[t].instr
	if spawn.Parent() != waiter.Parent() || o.entryOf(gr.Parents[0]) != spawn.Parent() {
		return false
	}
	// A run of S after a run of T must come after gb's instance is joined
	// past b: then that instance of g starts after b.
	if mayFollow(spawn, waiter) && (o.pendingAt(spawn).Test(uint(t)) || !o.releasedAfter(t, gb, b)) {
		return false
	}
	may, acq := o.may(a), o.acq(b)
	for w, ok := acq.NextSet(0); ok; w, ok = acq.NextSet(w + 1) {
		ev := &o.events[w]
		if ev.kind == evWait && o.addedBefore(o.acq(spawn), ev.id) && o.releasedBy(uint32(w), g, may) {
			return true
		}
	}
	return false
}

// mayFollow reports whether x may run after y in one run of their
// function.
func mayFollow(x, y ssa.Instruction) bool {
	bx, by := x.Block(), y.Block()
	if bx != by {
		return pointsto.ReachesAvoiding(by, bx, nil)
	}
	for _, instr := range bx.Instrs {
		if instr == y {
			return true // x comes later in the block
		}
		if instr == x {
			break
		}
	}
	for _, succ := range bx.Succs {
		if pointsto.ReachesAvoiding(succ, bx, nil) {
			return true // the block runs again
		}
	}
	return false
}

// goEventOf returns the go statement event that starts goroutine g, if
// there is one alone.
func (o *Order) goEventOf(g uint32) (uint32, bool) {
	if len(o.starts[g]) != 1 {
		return 0, false
	}
	return o.starts[g][0], true
}

// entryOf returns the function goroutine g starts in, or nil if it may
// start in several.
func (o *Order) entryOf(g uint32) *ssa.Function {
	gr := &o.gs.List[g]
	switch gr.Kind {
	case RootGoroutine:
		return o.f.Func(gr.Func)
	case GoGoroutine:
		if len(gr.Entries) == 1 {
			return o.f.Func(gr.Entries[0])
		}
	}
	return nil
}

// joiningEvents returns the events, in the function of go statement event
// s, that join the goroutine s starts:
//
//   - a Wait on a WaitGroup with an Add that completes before s on every
//     path, that a Done of a goroutine s starts may release (it waits for
//     the instance s started, see releasedBy);
//   - a receive later in s's block from a channel made anew before every
//     run of s and handed to the goroutine at s, whose partners are all
//     sends or closes by that goroutine's function through what it was
//     handed: the channel is that run's own, so the receive takes from the
//     instance s started in this run of the block, and no other.
func (o *Order) joiningEvents(s uint32) []uint32 {
	if js, ok := o.joins[s]; ok {
		return js
	}
	site := o.events[s].instr
	var js []uint32
	for id, ev := range o.events {
		if ev.instr.Parent() != site.Parent() {
			continue
		}
		switch {
		case ev.kind == evWait && o.addedBefore(o.acq(site), ev.id) && o.doneBy(&o.events[id], s),
			ev.kind == evChan && o.ownChannel(&o.events[id], site):
			js = append(js, uint32(id))
		}
	}
	o.joins[s] = js
	return js
}

// doneBy reports whether a Done of a goroutine that go statement event s
// starts may release Wait event w.
func (o *Order) doneBy(w *event, s uint32) bool {
	for _, d := range w.cands {
		for _, g := range o.gs.Of(o.events[d].fn) {
			if o.events[d].kind == evDone && slices.Contains(o.spawned[s], g) {
				return true
			}
		}
	}
	return false
}

// ownChannel reports whether channel event ev receives, after go statement
// site in its block, from a channel made anew before every run of site and
// handed to the goroutine there, whose partners are all sends or closes by
// the function site calls through what it was handed.
func (o *Order) ownChannel(ev *event, site ssa.Instruction) bool {
	recv, ok := ev.instr.(*ssa.UnOp)
	goSite, ok2 := site.(*ssa.Go)
	if !ok || !ok2 || recv.Op != token.ARROW || recv.Block() != site.Block() || !pointsto.RunsBefore(site, recv) || len(ev.cands) == 0 {
		return false
	}
	ch := storedValue(recv.X, recv)
	if ch == nil || !freshAt(ch, goSite) {
		return false
	}
	for _, c := range ev.cands {
		if sent := sentOn(o.events[c].instr); sent == nil || resolve(sent, goBinder(goSite)) != ch {
			return false
		}
	}
	return true
}

// storedValue returns v, or for a load of a local variable the value
// stored in it once before at on every path (pointsto.StoredOnce); nil
// if there is none.
func storedValue(v ssa.Value, at ssa.Instruction) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	if cell, ok := load.X.(*ssa.Alloc); ok {
		return pointsto.StoredOnce(cell, at)
	}
	return nil
}

// sentOn returns the channel a send or close sends on or closes, or nil.
// A deferred close counts: it closes the value its defer statement
// evaluated, where the function returns.
func sentOn(instr ssa.Instruction) ssa.Value {
	switch instr := instr.(type) {
	case *ssa.Send:
		return instr.Chan
	case *ssa.Call, *ssa.Defer:
		return closed(instr.(ssa.CallInstruction))
	}
	return nil
}

// closed returns the channel call closes, if it is a call of close.
func closed(call ssa.CallInstruction) ssa.Value {
	if b, ok := call.Common().Value.(*ssa.Builtin); ok && b.Name() == "close" {
		return call.Common().Args[0]
	}
	return nil
}

// pendingAt returns the go statements (events) of instr's function that
// may have run, since the last Wait that joins what they start, before
// instr: a union over the paths of the function's CFG.
func (o *Order) pendingAt(instr ssa.Instruction) *bitset.BitSet {
	fn := instr.Parent()
	in, ok := o.pending[fn]
	if !ok {
		in = o.pendingIn(fn)
		o.pending[fn] = in
	}
	b := instr.Block()
	if b == fn.Recover {
		// Entered by a panic from anywhere: every go statement may be pending.
		return bitset.New(uint(len(o.events))).Complement()
	}
	set := in[b.Index].Clone()
	for _, x := range b.Instrs {
		if x == instr {
			break
		}
		o.pendingStep(x, set)
	}
	return set
}

// pendingIn runs the dataflow of pendingAt and returns the sets at the
// entry of each block.
func (o *Order) pendingIn(fn *ssa.Function) []*bitset.BitSet {
	n := uint(len(o.events))
	in := make([]*bitset.BitSet, len(fn.Blocks))
	out := make([]*bitset.BitSet, len(fn.Blocks))
	for i := range fn.Blocks {
		in[i], out[i] = bitset.New(n), bitset.New(n)
	}
	// Termination: pendingStep is monotone and the out sets only grow
	// inside the go events, so a round that changes none comes after at
	// most |events|·|blocks| rounds that do.
	for changed := true; changed; {
		changed = false
		o.work += uint64(len(fn.Blocks))
		for _, b := range fn.Blocks {
			set := bitset.New(n)
			for _, p := range b.Preds {
				set.InPlaceUnion(out[p.Index])
			}
			in[b.Index] = set.Clone()
			for _, x := range b.Instrs {
				o.pendingStep(x, set)
			}
			if !set.Equal(out[b.Index]) {
				out[b.Index] = set
				changed = true
			}
		}
	}
	return in
}

// pendingStep applies instruction x to the pending set: a go statement
// becomes pending, a Wait joins the go statements it waits for.
func (o *Order) pendingStep(x ssa.Instruction, set *bitset.BitSet) {
	for _, id := range o.evOf[x] {
		switch o.events[id].kind {
		case evGo:
			set.Set(uint(id))
		case evWait, evChan:
			for s, ok := set.NextSet(0); ok; s, ok = set.NextSet(s + 1) {
				if slices.Contains(o.joiningEvents(uint32(s)), id) {
					set.Clear(s)
				}
			}
		}
	}
}
