package mhp

import (
	"encoding/binary"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"golang.org/x/tools/go/ssa"
)

// after returns what happens after instruction x when goroutine g runs it:
// the least fixpoint of
//
//   - a goroutine whose every start happens after x (startedAfter): a
//     child of goroutines in the set joins it the same way, when every
//     goroutine that may start it is in the set (the go statement happens
//     before the goroutine begins), never for being a descendant of one
//     (an abstract child may have instances started from elsewhere);
//   - an event whose every run is after x: in g, when g is single and the
//     event cannot have run before x (program order); in a goroutine that
//     happens after x; or after an acquire that happens after x;
//   - an acquire all of whose possible partners happen after x: a receive
//     completes after the send it receives from or the close it observes,
//     Wait returns after the Done that brings the counter to zero, once an
//     Add has raised it before the Wait, and a Lock that another Lock of
//     its mutex precedes returns after an Unlock (lockAcquires). Partners that happen after the
//     acquire itself cannot be its partner and are left out; an acquire
//     without any partner is left alone (its partner may be in code we do
//     not see).
//
// Each step holds in every execution, so x happens before everything in
// the result.
//
// The set depends on x only through g, the seed (onceReturns of x's
// function) and the members of may(x) that the fixpoint tests (mayTested):
// it is kept under those, so that the instructions of many functions, and
// of stretches of one function with different may sets, share one
// fixpoint. A first map, by goroutine, function and local may set (a set
// many instructions share), spares the key's computation.
func (o *Order) after(x ssa.Instruction, g uint32) *afterSet {
	fn := o.funcOf(x)
	key := afterKey{g, fn, o.localAt(x).may}
	if s, ok := o.afters[key]; ok {
		return s
	}
	may, seed := maySet{o.entryMay[fn], key.may}, o.onceReturns(fn)
	tested := may.entry.Union(may.local)
	tested.InPlaceIntersection(o.mayTested(g))
	content := binary.LittleEndian.AppendUint32(nil, g)
	content = appendWords(content, seed)
	content = appendWords(content, tested)
	s, ok := o.aftersBy[string(content)]
	if !ok {
		s = o.fixpoint(g, may, true, seed)
		o.aftersBy[string(content)] = s
	}
	o.afters[key] = s
	return s
}

// appendWords appends set's words up to its last member, after their
// number (nil: none).
func appendWords(b []byte, set *bitset.BitSet) []byte {
	var words []uint64
	if set != nil {
		words = set.Words()
	}
	for len(words) > 0 && words[len(words)-1] == 0 {
		words = words[:len(words)-1]
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(words)))
	for _, w := range words {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// mayTested returns the events whose membership in may the fixpoint for
// goroutine g tests (eventAfter, startsAfter, someDoneAfter): if g is
// single, the events of the functions g runs and the go events that start
// its children; otherwise the Dones of the functions g runs.
func (o *Order) mayTested(g uint32) *bitset.BitSet {
	if o.tested == nil {
		o.tested = make([]*bitset.BitSet, len(o.gs.List))
		for g := range o.gs.List {
			o.tested[g] = bitset.New(uint(len(o.events)))
		}
		for id, ev := range o.events {
			for _, t := range o.gs.Of(ev.fn) {
				if o.gs.List[t].Single || ev.kind == evDone {
					o.tested[t].Set(uint(id))
				}
			}
		}
		for g, gr := range o.gs.List {
			if !gr.Single {
				continue
			}
			for _, c := range o.children[g] {
				for _, ev := range o.startTests(c) {
					o.tested[g].Set(uint(ev))
				}
			}
		}
	}
	return o.tested[g]
}

// fixpoint computes what happens after a point of goroutine g with may
// before it, from the events known to happen after it (seed, or nil); with
// match false, acquires are not matched with their partners (basicAfter).
// Termination: each round that goes on adds an event to s.A or a goroutine
// to s.W, and neither set loses members, so there are at most
// |events| + |goroutines| + 1 rounds. The recursion through basicAfter is
// one level deep: basicAfter runs fixpoint with match false, which never
// calls basicAfter again.
func (o *Order) fixpoint(g uint32, may maySet, match bool, seed *bitset.BitSet) *afterSet {
	s := &afterSet{W: bitset.New(uint(len(o.gs.List))), A: bitset.New(uint(len(o.events)))}
	if seed != nil {
		s.A.InPlaceUnion(seed)
	}
	single := o.gs.List[g].Single
	for changed := true; changed; {
		changed = false
		o.work += uint64(len(o.events) + len(o.bySite))
		for id := range o.events {
			if s.A.Test(uint(id)) || !o.eventAfter(uint32(id), g, single, may, s, match) {
				continue
			}
			s.A.Set(uint(id))
			changed = true
			// Every start of these goroutines is a run of this go
			// statement. Their descendants join W through startedAfter,
			// once every goroutine that may start them is in W: an
			// abstract child may also be started by instances of other
			// goroutines, before x.
			for _, g2 := range o.spawned[id] {
				s.W.Set(uint(g2))
			}
		}
		// A goroutine of a spawn helper starts inside one of the calls
		// of callStarts: once each of them happens after x, so does it.
		for _, g2 := range o.spawnCalled {
			if !s.W.Test(uint(g2)) && !slices.ContainsFunc(o.callStarts[g2], func(ev uint32) bool { return !s.A.Test(uint(ev)) }) {
				s.W.Set(uint(g2))
				changed = true
			}
		}
		for _, site := range o.bySite {
			for _, g2 := range o.startedAfter(site, g, single, may, s) {
				s.W.Set(uint(g2))
				changed = true
			}
		}
	}
	return s
}

func (o *Order) eventAfter(id, g uint32, single bool, may maySet, s *afterSet, match bool) bool {
	ev := &o.events[id]
	if o.eventAcq(ev).IntersectionCardinality(s.A) > 0 {
		return true
	}
	if ev.kind == evGo {
		return false // startedAfter looks at the goroutines it starts one by one
	}
	threads := o.gs.Of(ev.fn)
	all := len(threads) > 0
	for _, t := range threads {
		if !s.W.Test(uint(t)) && !(t == g && single && !may.Test(id)) {
			all = false
			break
		}
	}
	if all {
		return true
	}
	if !match || !ev.acquire || len(ev.cands) == 0 {
		return false
	}
	if ev.afterAll {
		for _, c := range ev.cands {
			if s.A.Test(uint(c)) {
				return true
			}
		}
	}
	if ev.kind == evWait {
		return o.someDoneAfter(id, g, may, s)
	}
	basic := o.basicAfter(id)
	partners := 0
	for _, c := range ev.cands {
		if basic != nil && basic.A.Test(uint(c)) {
			continue
		}
		if !s.A.Test(uint(c)) {
			return false
		}
		partners++
	}
	return partners > 0
}

// startedAfter returns the goroutines of one go site (one per context)
// not yet in s.W that start after x, run by goroutine g: a greatest set
// in which every goroutine that may run the go statement for one of them
// happens after x, or is g when g is single and none of the go events
// that start it may have run before x (program order), or is itself only
// ever started through a goroutine of the set. For the last: by induction
// on time, the earliest start of a goroutine of the set is by one of the
// others, after x, and every later start descends from a start after x.
//
// Termination: each round keeps a subset of the last round's set and
// stops when it keeps all of it, so there are at most as many rounds as
// the site has goroutines; a round costs one search over the goroutines
// (startedAvoiding) and a look at each member's parents.
func (o *Order) startedAfter(site []uint32, g uint32, single bool, may maySet, s *afterSet) []uint32 {
	var set []uint32
	for _, g2 := range site {
		if !s.W.Test(uint(g2)) {
			set = append(set, g2)
		}
	}
	for len(set) > 0 {
		var free *bitset.BitSet // startedAvoiding(set), when it is needed
		onlyBySet := func(t uint32) bool {
			if free == nil {
				free = o.startedAvoiding(set)
			}
			return !free.Test(uint(t))
		}
		kept := make([]uint32, 0, len(set))
		for _, g2 := range set {
			if o.startsAfter(g2, g, single, may, s, onlyBySet) {
				kept = append(kept, g2)
			}
		}
		if len(kept) == len(set) {
			break
		}
		set = kept
	}
	return set
}

// startsAfter reports whether every goroutine that may start g2 does so
// after x (see startedAfter); onlyBySet tells whether a goroutine can only
// be started through a goroutine of the set.
func (o *Order) startsAfter(g2, g uint32, single bool, may maySet, s *afterSet, onlyBySet func(uint32) bool) bool {
	parents := o.gs.List[g2].Parents
	if len(parents) == 0 || len(o.starts[g2]) == 0 {
		return false // started from where we do not see
	}
	for _, t := range parents {
		o.work++
		inOrder := t == g && single && !slices.ContainsFunc(o.startTests(g2), func(ev uint32) bool { return may.Test(ev) })
		if !s.W.Test(uint(t)) && !inOrder && !onlyBySet(t) {
			return false
		}
	}
	return true
}

// startTests returns the events that startsAfter tests for g2: its go
// events, or, for a goroutine of a spawn helper, the calls of the helper
// that may start it (spawnCallEvents).
func (o *Order) startTests(g2 uint32) []uint32 {
	if calls := o.callStarts[g2]; len(calls) > 0 {
		return calls
	}
	return o.starts[g2]
}

// startedAvoiding returns the goroutines that a chain of starts reaches
// from a goroutine without parents (a root, or one started from where we
// do not see) without passing through a goroutine of set: the others can
// only be started through the set. Termination: a search that visits each
// goroutine at most once, so its work is at most the number of
// goroutines plus the number of parent links. The answer depends on the
// set only, and the fixpoints ask again for the same sets (one go site's
// goroutines for every instruction), so it is kept.
func (o *Order) startedAvoiding(set []uint32) *bitset.BitSet {
	key := make([]byte, 0, 4*len(set))
	for _, g := range set {
		key = binary.LittleEndian.AppendUint32(key, g)
	}
	if free, ok := o.avoiding[string(key)]; ok {
		return free
	}
	n := uint(len(o.gs.List))
	in := bitset.New(n)
	for _, g := range set {
		in.Set(uint(g))
	}
	free := bitset.New(n)
	var work []uint32
	for g := range o.gs.List {
		if len(o.gs.List[g].Parents) == 0 && !in.Test(uint(g)) {
			free.Set(uint(g))
			work = append(work, uint32(g))
		}
	}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range o.children[x] {
			o.work++
			if !free.Test(uint(c)) && !in.Test(uint(c)) {
				free.Set(uint(c))
				work = append(work, c)
			}
		}
	}
	o.avoiding[string(key)] = free
	return free
}

// basicAfter is what happens after acquire id without matching partners,
// or nil if the acquire may run in several goroutine instances (then a
// later instance's partner may match an earlier instance's acquire).
func (o *Order) basicAfter(id uint32) *afterSet {
	if s, ok := o.basic[id]; ok {
		return s
	}
	ev := &o.events[id]
	var s *afterSet
	if threads := o.gs.Of(ev.fn); len(threads) == 1 && o.gs.List[threads[0]].Single {
		may := o.may(ev.instr)
		may.local = may.local.Clone().Set(uint(id))
		s = o.fixpoint(threads[0], may, false, nil)
	}
	o.basic[id] = s
	return s
}

// A Pair of accesses answers Ordered for any goroutines that run them. The
// rules that look at the two accesses alone are decided once per Pair: the
// race funnel asks about one access pair in many goroutine pairs.
type Pair struct {
	o    *Order
	a, b ssa.Instruction
	// byAccesses: 0 until decided, 1 if the accesses alone order a and b
	// (sameOnceRun, oneActivation, sameOnceObject, onceDone, ownWaitGroup, lastOut, published,
	// countedOut, handedLater), -1 if not.
	byAccesses int8
	// after(a, ga) for the last ga asked, after(b, gb) by gb, acq(a) and
	// acq(b): the race funnel asks about each ga of a list with every gb.
	lastGa     uint32
	afterA     *afterSet
	afterB     map[uint32]*afterSet
	acqA, acqB *bitset.BitSet
}

// Pair returns the Pair of accesses a and b.
func (o *Order) Pair(a, b ssa.Instruction) *Pair { return &Pair{o: o, a: a, b: b} }

// Ordered reports whether, whenever goroutine ga runs a and goroutine gb
// runs b, one of the two happens before the other.
func (p *Pair) Ordered(ga, gb uint32) bool {
	o, a, b := p.o, p.a, p.b
	gs := o.gs
	if !gs.SameProgram(ga, gb) {
		return true // separate processes
	}
	if ga == gb && (gs.List[ga].Single || a.Parent() == b.Parent() && o.oneInstance(o.funcOf(a), ga)) {
		return true // one goroutine runs one instruction at a time
	}
	if ga != gb && gs.oneStarted(ga, gb) {
		return true // never both in one execution
	}
	if o.goroutinePair(ga, gb)&pairSequential != 0 || o.joinedPair(a, ga, b, gb) || o.drainedPair(a, ga, b, gb) || p.orderedByAccesses() ||
		o.countedGoroutine(a, ga, b, gb) || o.countedGoroutine(b, gb, a, ga) || o.groupJoined(a, ga, b, gb) || o.groupJoined(b, gb, a, ga) ||
		gs.branches.exclusiveNodes(ga, o.funcOf(a), gb, o.funcOf(b)) {
		return true
	}
	if p.acqA == nil {
		p.acqA, p.acqB, p.afterB = o.acq(a), o.acq(b), map[uint32]*afterSet{}
	}
	if p.afterA == nil || p.lastGa != ga {
		p.lastGa, p.afterA = ga, o.after(a, ga)
	}
	if s := p.afterA; s.W.Test(uint(gb)) || p.acqB.IntersectionCardinality(s.A) > 0 {
		return true
	}
	s, ok := p.afterB[gb]
	if !ok {
		s = o.after(b, gb)
		p.afterB[gb] = s
	}
	return s.W.Test(uint(ga)) || p.acqA.IntersectionCardinality(s.A) > 0
}

// pairFacts is what the rules of Ordered that read two goroutines alone
// say of them (goroutinePair).
type pairFacts uint8

const (
	pairKnown      pairFacts = 1 << iota // the others are set
	pairSequential                       // Goroutines.sequential
	pairChainable                        // chainOf(ga, gb).ok: chained may hold
)

// goroutinePair returns the pairFacts of goroutines ga and gb, computed
// once per pair: the race funnel asks about the same goroutine pairs for
// every pair of accesses. A row of them per ga, made when first asked.
func (o *Order) goroutinePair(ga, gb uint32) pairFacts {
	if o.byPair == nil {
		o.byPair = make([][]pairFacts, len(o.gs.List))
	}
	row := o.byPair[ga]
	if row == nil {
		row = make([]pairFacts, len(o.gs.List))
		o.byPair[ga] = row
	}
	f := row[gb]
	if f == 0 {
		f = pairKnown
		if o.gs.sequential(ga, gb) {
			f |= pairSequential
		}
		if o.chainOf(ga, gb).ok {
			f |= pairChainable
		}
		row[gb] = f
	}
	return f
}

// orderedByAccesses reports whether the rules that look at the accesses
// alone order them.
func (p *Pair) orderedByAccesses() bool {
	if p.byAccesses == 0 {
		o, a, b := p.o, p.a, p.b
		p.byAccesses = -1
		if o.sameOnceRun(a, b) || o.oneActivation(a, b) || o.sameOnceObject(a, b) || o.onceDone(a, b) || o.onceDone(b, a) || o.ownWaitGroup(a, b) || o.ownWaitGroup(b, a) || o.lastOut(a, b) || o.published(a, b) ||
			o.countedOut(a, b) || o.countedOut(b, a) || o.handedLater(a) || o.handedLater(b) {
			p.byAccesses = 1
		}
	}
	return p.byAccesses > 0
}

// eventAcq is acq at the point where an event takes effect: a deferred
// call's wherever its function runs its deferred calls.
func (o *Order) eventAcq(ev *event) *bitset.BitSet {
	if _, ok := ev.instr.(*ssa.Defer); ok {
		return o.entryAcq[ev.fn].Union(o.deferAcq[ev.fn])
	}
	return o.acq(ev.instr)
}

// someDoneAfter reports whether Wait id returns after x, run by goroutine
// g. Wait returns once the counter is zero, that is after every Done that
// answers an Add made before it; so it is after x when a Done that may
// release it runs after x and its Add is known to come before the Wait:
//
//   - the Done runs after x in every execution, and an Add on the Wait's
//     WaitGroup completes before the Wait on every path; or
//   - the Done runs after x in x's own goroutine instance (even if g has
//     several), g is started by a go statement that an Add on the Wait's
//     WaitGroup precedes, in the single goroutine that runs the Wait, and
//     the Wait cannot have run before that go statement (so it waits for
//     every instance of g).
//
// Both assume the WaitGroup rule of its documentation: an Add that starts
// from a zero counter happens before the Wait.
func (o *Order) someDoneAfter(id, g uint32, may maySet, s *afterSet) bool {
	wait := &o.events[id]
	for _, c := range wait.cands {
		if s.A.Test(uint(c)) && o.addedBefore(o.acq(wait.instr), wait.id) {
			return true
		}
		if slices.Contains(o.gs.Of(o.events[c].fn), g) && !may.Test(c) && o.spawnedAfterAdd(g, id) {
			return true
		}
	}
	return false
}

// spawnedAfterAdd reports whether goroutine g is started, in the single
// goroutine that runs Wait id, after an Add on the Wait's WaitGroup, by go
// events that cannot run after the Wait.
func (o *Order) spawnedAfterAdd(g, id uint32) bool {
	wait := &o.events[id]
	gr := &o.gs.List[g]
	waiters := o.gs.Of(wait.fn)
	if gr.Kind != GoGoroutine || len(waiters) != 1 || !o.gs.List[waiters[0]].Single ||
		!slices.Equal(gr.Parents, waiters) || len(o.starts[g]) == 0 {
		return false
	}
	for _, ev := range o.starts[g] {
		spawn := o.events[ev].instr
		if !o.addedBefore(o.acq(spawn), wait.id) && !o.callsAdd(g, wait.id) || o.mayPrecedeStart(g, spawn, id) {
			return false
		}
	}
	return true
}

// callsAdd reports whether every call of callStarts[g] (there is one) is
// itself an Add on the WaitGroup that WaitGroup call i uses (WaitGroup.Go):
// it adds before the go statement inside it starts g.
func (o *Order) callsAdd(g, i uint32) bool {
	w, ok := o.uniqueSyncObj(i)
	calls := o.callStarts[g]
	return ok && len(calls) > 0 && !slices.ContainsFunc(calls, func(c uint32) bool {
		return !slices.ContainsFunc(o.evOf[o.events[c].instr], func(a uint32) bool { return o.addsOn(a, w) })
	})
}

// mayPrecedeStart reports whether event id may have run before go
// statement spawn, in the goroutine instance that starts g there. For a
// goroutine of a spawn helper, spawn runs inside a call of callStarts:
// id runs before it only before such a call, or inside the helper's
// activation before spawn (its function's own may, without its entry).
func (o *Order) mayPrecedeStart(g uint32, spawn ssa.Instruction, id uint32) bool {
	calls := o.callStarts[g]
	if len(calls) == 0 {
		return o.may(spawn).Test(id)
	}
	return o.localAt(spawn).may.Test(uint(id)) ||
		slices.ContainsFunc(calls, func(c uint32) bool { return o.may(o.events[c].instr).Test(id) })
}

// addedBefore reports whether acq holds an Add on the WaitGroup that the
// WaitGroup call i uses: both use one and the same abstract object, which
// stands for one concrete WaitGroup (Unique). An Add that may be on
// another abstract WaitGroup (the Add inside WaitGroup.Go, called on two
// groups, is one instruction for both), or on another concrete instance of
// the same one (a WaitGroup made in a loop), may have counted the
// goroutine it precedes on a group this Wait does not wait for.
func (o *Order) addedBefore(acq *bitset.BitSet, i uint32) bool {
	w, ok := o.uniqueSyncObj(i)
	if !ok {
		return false
	}
	for a, ok := acq.NextSet(0); ok; a, ok = acq.NextSet(a + 1) {
		if o.addsOn(uint32(a), w) {
			return true
		}
	}
	return false
}

// uniqueSyncObj returns the abstract object that synchronization call i
// uses, when it may use only one and that one stands for one concrete
// object.
func (o *Order) uniqueSyncObj(i uint32) (uint32, bool) {
	w, ok := o.oneSyncObj(i)
	return w, ok && o.unique.Test(uint(w))
}

// addsOn reports whether event a is an Add on abstract object w alone.
func (o *Order) addsOn(a, w uint32) bool {
	add := &o.events[a]
	if add.kind != evAdd {
		return false
	}
	x, ok := o.oneSyncObj(add.id)
	return ok && x == w
}

// oneSyncObj returns the abstract object that synchronization call i
// uses, when it may use only one.
func (o *Order) oneSyncObj(i uint32) (uint32, bool) {
	objs := o.syncObjs[i]
	if len(objs) == 0 || slices.ContainsFunc(objs, func(x uint32) bool { return x != objs[0] }) {
		return 0, false
	}
	return objs[0], true
}
