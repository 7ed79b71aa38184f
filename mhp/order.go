package mhp

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// An event is a go statement or a synchronization operation.
type event struct {
	kind  eventKind
	instr ssa.Instruction
	fn    uint32   // M
	id    uint32   // E of a channel operation, I of a call
	cands []uint32 // acquires: the events that may complete it
	// acquire: the event completes only after one of cands: a receive, an
	// unbuffered send, a blocking select without buffered send cases, the
	// closed branch of a receive, Wait, a Lock that a Lock before it
	// forces to wait for an Unlock.
	acquire bool
	// afterAll: the event completes only after every one of cands, so
	// after x as soon as one of them is (a counted send, countedSends).
	afterAll bool
	close    bool // a close
}

type eventKind uint8

const (
	evGo          eventKind = iota
	evChan                  // a send, receive, close or select
	evClosed                // the branch taken when a receive reports the channel closed
	evCase                  // the branch of one case of a blocking select
	evDone                  // WaitGroup.Done
	evWait                  // WaitGroup.Wait
	evAdd                   // WaitGroup.Add
	evObserved              // the branch taken when an atomic operation read a value some atomic write stored
	evAtomicWrite           // an atomic write that an evObserved may observe
	evLock                  // a call of Lock on a sync.Mutex or sync.RWMutex
	evUnlock                // a call of Unlock on a sync.Mutex or sync.RWMutex
	evOnce                  // a call of sync.Once.Do, which returns after f has completed (once.go)
	evSpawnCall             // a call of a spawn helper, whose go statement starts a goroutine inside it (spawncall.go)
)

// tracked reports whether acq follows the event: acquires, and the Adds,
// Locks and Dos other rules ask about.
func (e *event) tracked() bool {
	return e.acquire || e.kind == evAdd || e.kind == evLock || e.kind == evOnce
}

// Order decides whether one access happens before another by Go's
// happens-before (the Go memory model, go.dev/ref/mem).
//
// Two sets, computed by dataflow over each function's CFG and over the
// context-insensitive call graph, place an instruction x among the events
// of its goroutine instance:
//
//   - may(x): the events that may have run before x in the same goroutine
//     instance (union over paths; a call adds what its callees may run; a
//     new goroutine starts empty);
//   - acq(x): the acquires (receives, Waits) and WaitGroup.Adds that have
//     completed before x on every path (intersection over paths and
//     callers; a call adds what its callees run on every path to return;
//     roots and goroutines start empty; a deferred call starts with what
//     its caller completed at every return and every instruction that may
//     panic, and so does the block where the caller resumes after a
//     recovered panic, without the returns).
//
// From these, after(x in g) is the set of events and whole goroutines that
// happen after x, a least fixpoint (see after).
type Order struct {
	gs      *Goroutines
	f       *pointsto.Facts
	events  []event
	evOf    map[ssa.Instruction][]uint32
	blockEv map[*ssa.BasicBlock][]uint32       // events at the entry of a block (evClosed, evObserved)
	acqAt   map[ssa.Instruction]*bitset.BitSet // acq, kept: asked for every pair checked
	callees func(i uint32) []uint32
	spawned [][]uint32 // by go event: the goroutines it starts
	starts  [][]uint32 // by goroutine: the go events that start it
	// callStarts, by goroutine of a spawn helper's go statement: the
	// events of the calls of the helper that may start it (spawnCallEvents).
	callStarts  [][]uint32
	spawnCalled []uint32   // the goroutines with callStarts
	bySite      [][]uint32 // the goroutines of each go site, one list per site

	flowSets
	flowIn flowInputs
	cg     *callGraph

	syncObjs    map[uint32][]uint32       // WaitGroup call I -> objects
	unique      *bitset.BitSet            // the objects that stand for one concrete object (Unique)
	allocSites  map[*ssa.Alloc]uint32     // the site of each Alloc (findOnceSites)
	onceSites   map[uint32]bool           // the sites all of whose objects are Unique
	spawnerCtxs map[uint32][]pointsto.Ctx // by call site of a function with a go statement: its callee contexts
	mutexes     map[uint32][]uint32       // Lock or Unlock event -> the mutexes it may use, sorted
	lockFns     map[uint32]bool           // the Lock methods (mutexMethods)
	unmodeled   map[uint32]bool           // mutexes that may be unlocked other than by an Unlock event
	afters      map[afterKey]*afterSet
	aftersBy    map[string]*afterSet // the sets of afters, by what they depend on (after)
	tested      []*bitset.BitSet     // by goroutine: mayTested
	basic       map[uint32]*afterSet // by acquire event: what happens after it, without matching

	joins     map[uint32][]uint32                 // by go event: the Waits that join what it starts (joiningWaits)
	drains    map[uint32]*drain                   // by go event: its goroutines' windows, if they are drained (drainOf)
	pending   map[*ssa.Function][]*bitset.BitSet  // by function: pendingAt at each block's entry
	callSites map[uint32][]uint32                 // by M: the call sites that may call it (callSitesOf)
	actJoins  map[ssa.Instruction]*activationJoin // by S: joinedInCall's conditions on it (nil: fail)
	once      *onceRuns                           // the functions that run inside one run of a sync.Once's f (once.go)
	chains    map[[2]uint32]*chain                // by pair of chain closures, the lower first (chainOf)
	byPair    [][]pairFacts                       // by ga, then gb: goroutinePair
	closureOf map[uint32]uint32                   // by goroutine: its chain closure (chainClosure)
	// closureSets are the distinct chain closures, closureIDs their
	// indexes by the sets' words.
	closureSets []*bitset.BitSet
	closureIDs  map[string]uint32
	perInstance map[onceKey]bool          // oncePerInstance
	children    [][]uint32                // by goroutine: the goroutines it may start
	avoiding    map[string]*bitset.BitSet // startedAvoiding, by its set's goroutines
	// repeatsAt and made keep Facts.Repeats and madeOnce, which depend
	// on the SSA alone and are asked again for every pair of accesses.
	repeatsAt  map[*ssa.BasicBlock]bool
	made       map[*ssa.Function]ssa.Value
	lifted     map[liftKey]frame              // lift, by instruction and value: the pair rules ask for each access's frame again
	freshFns   map[*ssa.Function]bool         // returnsFresh, by function
	dirty      *dirtyPublish                  // dirtyStores, once
	entrySet   map[uint32]bool                // the roots and initializers (isEntry)
	res        *pointsto.Result               // for the points-to of stored values (dirtyStores)
	cellAdds   map[*ssa.Function][]counterAdd // counterAdds, by function
	callOrders map[callOrderKey]*CallOrder    // CallOrder, one per what it reads of b

	// handovers, paramsBefore and freshParams keep what handedLater found
	// by function and parameter.
	handovers    *Handovers
	paramsBefore map[*ssa.Function]map[ssa.Instruction]bool
	freshParams  map[*ssa.Parameter]bool

	// work counts the steps of the fixpoints and searches (see Work).
	work uint64
}

// flowSets are the sets of the dataflow that unwinding, summaries and
// entries compute. They read nothing but flowInputs and the facts (the
// SSA, the call sites, the entries), so an Order with equal flowInputs
// over the same facts has equal flowSets. Nothing changes them once made.
type flowSets struct {
	empty              *bitset.BitSet
	entryMay, entryAcq []*bitset.BitSet               // by M
	atInstr            map[ssa.Instruction]*localSets // inside the function, at each instruction
	mayExec, mustExec  []*bitset.BitSet               // by M: what a call of m may run / runs on every path to return
	acqs               *bitset.BitSet                 // the acquires and Adds
	deferAcq           []*bitset.BitSet               // by M: local acq wherever its deferred calls may run
	recoverable        []bool                         // by M: a panic in it may be recovered (unwinding)
	goexits            []bool                         // by M: a call of it may run runtime.Goexit
}

// flowInputs are what of an Order's events and call graph the dataflow
// of flowSets reads: each event's function and whether acq follows it
// (tracked), the events at each instruction and block entry, and the
// callees of each call site. A change to what unwinding, summaries,
// entries or local read must add it here.
type flowInputs struct {
	facts   *pointsto.Facts
	events  []flowEvent
	evOf    map[ssa.Instruction][]uint32
	blockEv map[*ssa.BasicBlock][]uint32
	callees [][]uint32 // by I
}

type flowEvent struct {
	fn      uint32
	tracked bool
}

func (o *Order) flowInputs() flowInputs {
	in := flowInputs{facts: o.f, events: make([]flowEvent, len(o.events)), evOf: o.evOf, blockEv: o.blockEv,
		callees: make([][]uint32, o.f.Size(pointsto.DomI))}
	for id := range o.events {
		in.events[id] = flowEvent{o.events[id].fn, o.events[id].tracked()}
	}
	for i := range in.callees {
		in.callees[i] = o.callees(uint32(i))
	}
	return in
}

func (in *flowInputs) equal(x *flowInputs) bool {
	return in.facts == x.facts && slices.Equal(in.events, x.events) &&
		maps.EqualFunc(in.evOf, x.evOf, slices.Equal) && maps.EqualFunc(in.blockEv, x.blockEv, slices.Equal) &&
		slices.EqualFunc(in.callees, x.callees, slices.Equal)
}

// A Flow is the dataflow of an Order (may and acq at every instruction,
// what each function may run and runs on every path), kept for the next
// Order of the same program: the demand loop's runs differ in Sigma, and
// where a finer Sigma leaves the events and the context-insensitive call
// graph as they were, the dataflow is the same and NewOrder takes it
// instead of computing it again.
type Flow struct {
	in   flowInputs
	sets flowSets
}

// Flow returns o's dataflow, for NewOrder's reuse.
func (o *Order) Flow() *Flow { return &Flow{o.flowIn, o.flowSets} }

type afterKey struct {
	g   uint32
	fn  uint32
	may *bitset.BitSet
}

// afterSet is what happens after an instruction: whole goroutines (W) and
// events (A).
type afterSet struct{ W, A *bitset.BitSet }

// NewOrder extracts the events and runs the dataflow. callees gives the
// functions a call site may call (pointsto's call graph projection). If
// reuse (nil: none) is the Flow of an Order whose flowInputs equal this
// one's, its dataflow is taken as it is: the same inputs give the same
// sets.
func NewOrder(r *pointsto.Result, gs *Goroutines, callees func(i uint32) []uint32, reuse *Flow) *Order {
	f := r.Facts
	o := &Order{gs: gs, f: f, res: r, evOf: map[ssa.Instruction][]uint32{}, callees: callees,
		afters: map[afterKey]*afterSet{}, aftersBy: map[string]*afterSet{}, basic: map[uint32]*afterSet{}, syncObjs: map[uint32][]uint32{},
		blockEv: map[*ssa.BasicBlock][]uint32{}, acqAt: map[ssa.Instruction]*bitset.BitSet{},
		joins: map[uint32][]uint32{}, drains: map[uint32]*drain{}, pending: map[*ssa.Function][]*bitset.BitSet{},
		chains: map[[2]uint32]*chain{}, closureOf: map[uint32]uint32{}, closureIDs: map[string]uint32{}, perInstance: map[onceKey]bool{},
		avoiding: map[string]*bitset.BitSet{}, repeatsAt: map[*ssa.BasicBlock]bool{}, made: map[*ssa.Function]ssa.Value{}, lifted: map[liftKey]frame{},
		freshFns: map[*ssa.Function]bool{}, cellAdds: map[*ssa.Function][]counterAdd{},
		handovers: NewHandovers(), paramsBefore: map[*ssa.Function]map[ssa.Instruction]bool{}, freshParams: map[*ssa.Parameter]bool{}}
	o.children = make([][]uint32, len(gs.List))
	for g, gr := range gs.List {
		for _, p := range gr.Parents {
			o.children[p] = append(o.children[p], uint32(g))
		}
	}
	o.cg = o.callGraph()
	o.findEvents(r)
	o.flowIn = o.flowInputs()
	if reuse != nil && reuse.in.equal(&o.flowIn) {
		o.flowSets = reuse.sets
	} else {
		o.empty = bitset.New(uint(len(o.events)))
		o.unwinding()
		o.summaries()
		o.entries()
	}
	o.unique = gs.Unique(r)
	o.lockAcquires(o.unique)
	o.findOnceRuns(r, o.unique)
	o.findOnceSites(r)
	o.findSpawnerCtxs(r)
	return o
}

// Work returns the steps the Order's fixpoints and searches have taken so
// far (rounds times the blocks, functions or events a round visits; each
// goroutine link a search or a chain check looks at): a cost that, unlike
// time, does not depend on the machine, for tests to bound.
func (o *Order) Work() uint64 { return o.work }

func (o *Order) addEvent(ev event) uint32 {
	id := uint32(len(o.events))
	o.events = append(o.events, ev)
	o.evOf[ev.instr] = append(o.evOf[ev.instr], id)
	return id
}

func (o *Order) findEvents(r *pointsto.Result) {
	f := o.f
	// Channel operations: a select is one E with a tuple per case.
	kinds := map[uint32][]uint32{}
	cases := map[uint32][]uint32{} // E -> the channel value of each case
	var chanEs []uint32
	for _, t := range f.Tuples("chanOp") {
		if kinds[t[0]] == nil {
			chanEs = append(chanEs, t[0])
		}
		kinds[t[0]] = append(kinds[t[0]], t[2])
		cases[t[0]] = append(cases[t[0]], t[1])
	}
	buffered := map[uint32]bool{}
	for t := range o.gs.Tuples("bufferedCase") {
		buffered[t[0]] = true
	}
	evOfE := map[uint32]uint32{}
	closedOf := map[uint32]uint32{} // receive -> its closed branch
	for _, e := range chanEs {
		instr := f.Access(e)
		isClose := slices.Contains(kinds[e], pointsto.ChanClose)
		acquire := !isClose && !buffered[e]
		if sel, ok := instr.(*ssa.Select); ok && !sel.Blocking {
			acquire = false // the default case needs no partner
		}
		evOfE[e] = o.addEvent(event{kind: evChan, instr: instr, fn: f.AccessFunc(e), id: e, acquire: acquire, close: isClose})
		if b := closedBranch(instr); b != nil {
			id := uint32(len(o.events))
			o.events = append(o.events, event{kind: evClosed, instr: instr, fn: f.AccessFunc(e), id: e, acquire: true})
			o.blockEv[b] = append(o.blockEv[b], id)
			closedOf[evOfE[e]] = id
		}
	}
	evOfI := map[uint32]uint32{}
	for _, t := range f.Tuples("syncCall") {
		var k eventKind
		switch t[2] {
		case pointsto.SyncWaitGroupAdd:
			k = evAdd
		case pointsto.SyncWaitGroupGo:
			// Go calls Add(1) on its receiver before it starts f: in the
			// caller, the call is an Add on that one group, where the Add
			// inside Go is one instruction for every group Go is called on.
			if o.cg.kind[t[0]] == goCallKind {
				continue // adds in a goroutine of its own
			}
			k = evAdd
		case pointsto.SyncWaitGroupDone:
			k = evDone
		case pointsto.SyncWaitGroupWait:
			k = evWait
		case pointsto.SyncOnceDo:
			if o.cg.kind[t[0]] == goCallKind {
				continue // returns in a goroutine of its own
			}
			k = evOnce
		default:
			continue
		}
		evOfI[t[0]] = o.addEvent(event{kind: k, instr: f.Call(t[0]), fn: f.Caller(t[0]), id: t[0], acquire: k == evWait})
	}
	spawns := o.goEvents(r)
	o.callStarts = o.spawnCallEvents(r)
	for g, calls := range o.callStarts {
		if len(calls) > 0 {
			o.spawnCalled = append(o.spawnCalled, uint32(g))
		}
	}
	caseCands := map[[2]uint32][]uint32{} // (E, case channel value) -> partner events
	for t := range o.gs.Tuples("caseCand") {
		ev, s := evOfE[t[0]], evOfE[t[2]]
		if ev == s && o.singleOnly(o.events[ev].fn) {
			continue // a select cannot complete with itself in one goroutine
		}
		caseCands[[2]uint32{t[0], t[1]}] = append(caseCands[[2]uint32{t[0], t[1]}], s)
		o.events[ev].cands = append(o.events[ev].cands, s)
		if c, ok := closedOf[ev]; ok && o.events[s].close {
			o.events[c].cands = append(o.events[c].cands, s)
		}
	}
	o.selectCases(cases, evOfE, caseCands)
	o.countedSends(r)
	o.atomicObservations()
	o.lockEvents()
	for t := range o.gs.Tuples("waitCand") {
		ev := evOfI[t[0]]
		o.events[ev].cands = append(o.events[ev].cands, evOfI[t[1]])
	}
	for t := range o.gs.Tuples("syncObj") {
		o.syncObjs[t[0]] = append(o.syncObjs[t[0]], t[1])
	}
	o.spawned = make([][]uint32, len(o.events))
	o.starts = make([][]uint32, len(o.gs.List))
	for ev, gs := range spawns {
		o.spawned[ev] = gs
		for _, g := range gs {
			o.starts[g] = append(o.starts[g], ev)
		}
	}
	for i := range o.events {
		slices.Sort(o.events[i].cands)
		o.events[i].cands = slices.Compact(o.events[i].cands)
	}
}

// goEvents adds the go events and returns the goroutines each starts.
//
// A callback that a function of the package registering it hands to the
// runtime (time.AfterFunc calling time.newTimer, a synthetic go site of
// pointsto) gets one go event at each call of that function, in the
// caller, starting the callback goroutines of that call's contexts: the
// runtime cannot run the callback before the call registers it, so every
// start of such a goroutine runs inside that call. This needs every call
// of the function to be a plain call (not go or defer) that pointsto
// sees, so that each context the function runs in is entered at a call
// site that gets the event.
func (o *Order) goEvents(r *pointsto.Result) map[uint32][]uint32 {
	f := o.f
	byCtx := map[[2]uint32]uint32{} // (go site, context) -> goroutine
	sites := map[uint32]int{}       // go site -> index in bySite
	for g, gr := range o.gs.List {
		if gr.Kind != GoGoroutine {
			continue
		}
		byCtx[[2]uint32{gr.Site, gr.Ctx}] = uint32(g)
		k, ok := sites[gr.Site]
		if !ok {
			k = len(o.bySite)
			sites[gr.Site] = k
			o.bySite = append(o.bySite, nil)
		}
		o.bySite[k] = append(o.bySite[k], uint32(g))
	}
	registered := map[uint32]bool{} // functions whose synthetic go sites sit at their calls
	for _, t := range f.Tuples("goCall") {
		if m := f.Caller(t[0]); registersInOwnPackage(f.Call(t[0]), f.Func(m)) {
			registered[m] = true
		}
	}
	calls := o.plainCallsOf(r, registered)
	spawns := map[uint32][]uint32{}
	for _, t := range f.Tuples("goCall") {
		site := t[0]
		m := f.Caller(site)
		if !registered[m] {
			ev := o.addEvent(event{kind: evGo, instr: f.Call(site), fn: m, id: site})
			if k, ok := sites[site]; ok {
				spawns[ev] = o.bySite[k]
			}
			continue
		}
		byCall := map[uint32]uint32{} // call site -> its event
		for _, cl := range calls[m] {
			ev, ok := byCall[cl.site]
			if !ok {
				ev = o.addEvent(event{kind: evGo, instr: f.Call(cl.site), fn: f.Caller(cl.site), id: site})
				byCall[cl.site] = ev
			}
			if g, ok := byCtx[[2]uint32{site, cl.ctx}]; ok && !slices.Contains(spawns[ev], g) {
				spawns[ev] = append(spawns[ev], g)
			}
		}
	}
	return spawns
}

// A ctxCall is a call site and a context it runs its callee in.
type ctxCall struct{ site, ctx uint32 }

// plainCallsOf returns the calls of the functions of fns, after deleting
// from fns the entries and the functions that some call runs other than
// as a plain call (go, defer): those whose every context is entered at a
// plain call pointsto sees.
func (o *Order) plainCallsOf(r *pointsto.Result, fns map[uint32]bool) map[uint32][]ctxCall {
	for _, t := range o.f.Tuples("entry") {
		delete(fns, t[0])
	}
	calls := map[uint32][]ctxCall{}
	for t := range r.Tuples("callEdge") {
		i, c, m := t[1], t[2], t[3]
		if !fns[m] {
			continue
		}
		if o.cg.kind[i] != plainCall {
			delete(fns, m)
			delete(calls, m)
			continue
		}
		calls[m] = append(calls[m], ctxCall{i, c})
	}
	return calls
}

// registersInOwnPackage reports whether call, a synthetic go site, is a
// call in fn of a function of fn's own package (time.newTimer in
// time.AfterFunc): the API function that registers the callback.
func registersInOwnPackage(call ssa.CallInstruction, fn *ssa.Function) bool {
	if _, ok := call.(*ssa.Go); ok || fn == nil || fn.Pkg == nil {
		return false
	}
	callee := call.Common().StaticCallee()
	return callee != nil && callee.Pkg == fn.Pkg
}

// callGraph is the context-insensitive call graph the dataflow runs over.
type callGraph struct {
	sites  [][]uint32 // by M: its call sites
	callOf map[ssa.Instruction]uint32
	kind   []callKind // by I
}

type callKind uint8

const (
	plainCall callKind = iota
	goCallKind
	deferCallKind
)

func (o *Order) callGraph() *callGraph {
	f := o.f
	cg := &callGraph{sites: make([][]uint32, f.Size(pointsto.DomM)), callOf: map[ssa.Instruction]uint32{},
		kind: make([]callKind, f.Size(pointsto.DomI))}
	for _, t := range f.Tuples("callSite") {
		cg.sites[t[1]] = append(cg.sites[t[1]], t[0])
		if c := f.Call(t[0]); c.Parent() != nil && f.Analyzed(t[1]) {
			if fn, ok := f.FuncID(c.Parent()); ok && fn == t[1] {
				cg.callOf[c] = t[0]
			}
		}
	}
	for _, t := range f.Tuples("goCall") {
		cg.kind[t[0]] = goCallKind
	}
	for _, t := range f.Tuples("deferCall") {
		cg.kind[t[0]] = deferCallKind
	}
	return cg
}

// summaries computes mayExec and mustExec for every function, then the
// local sets of each function.
func (o *Order) summaries() {
	f := o.f
	nM := f.Size(pointsto.DomM)
	cg := o.cg
	own := make([]*bitset.BitSet, nM)
	for id, ev := range o.events {
		if own[ev.fn] == nil {
			own[ev.fn] = bitset.New(uint(len(o.events)))
		}
		own[ev.fn].Set(uint(id))
	}
	callers := make([][]uint32, nM) // by M: functions that call it (not by go)
	for m, sites := range cg.sites {
		for _, i := range sites {
			if cg.kind[i] == goCallKind {
				continue
			}
			for _, m2 := range o.callees(i) {
				callers[m2] = append(callers[m2], uint32(m))
			}
		}
	}
	// mayExec: least fixpoint of own events plus callees'. Termination: a
	// function goes back on the worklist only when its set grew, and a set
	// only grows inside the events, so at most |events| times each.
	o.mayExec = make([]*bitset.BitSet, nM)
	var work []uint32
	for m := range nM {
		o.mayExec[m] = o.empty
		if own[m] != nil {
			o.mayExec[m] = own[m].Clone()
			work = append(work, uint32(m))
		}
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, m2 := range callers[m] {
			if o.mayExec[m2].IsSuperSet(o.mayExec[m]) {
				continue
			}
			if o.mayExec[m2] == o.empty {
				o.mayExec[m2] = bitset.New(uint(len(o.events)))
			}
			o.mayExec[m2].InPlaceUnion(o.mayExec[m])
			work = append(work, m2)
		}
	}
	// mustExec: greatest fixpoint, from the acquires a function may run.
	// Termination: local's exit is monotone in the callees' mustExec and
	// lies inside mayExec ∩ acqs, the start, so each update shrinks a set:
	// at most |mayExec[m] ∩ acqs| updates of m, each requeueing its callers.
	acqs := bitset.New(uint(len(o.events)))
	for id, ev := range o.events {
		if ev.tracked() {
			acqs.Set(uint(id))
		}
	}
	o.acqs = acqs
	o.mustExec = make([]*bitset.BitSet, nM)
	inWork := make([]bool, nM)
	work = work[:0]
	for m := range nM {
		o.mustExec[m] = o.mayExec[m].Intersection(acqs)
		if o.mustExec[m].Any() {
			work = append(work, uint32(m))
			inWork[m] = true
		}
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[m] = false
		exit, _ := o.local(m, false)
		if exit.Equal(o.mustExec[m]) {
			continue
		}
		o.mustExec[m] = exit
		for _, m2 := range callers[m] {
			if !inWork[m2] {
				inWork[m2] = true
				work = append(work, m2)
			}
		}
	}
	o.atInstr = map[ssa.Instruction]*localSets{}
	o.deferAcq = make([]*bitset.BitSet, nM)
	for m := range nM {
		o.deferAcq[m] = o.empty
		if o.mayExec[m].Any() {
			_, o.deferAcq[m] = o.local(uint32(m), true)
		}
	}
}

// local runs the dataflow inside function m from empty entry sets. It
// returns the acquires completed on every path to a return, and those
// completed wherever m's deferred calls may run: at a return, or at an
// instruction that may panic (a panic in a callee shows at the call; so
// does runtime.Goexit, which also runs them) where the panic need not end
// the program (unwindsAt). With record, it keeps may and acq at each
// instruction.
//
// The Recover block, where m resumes after a deferred call recovers a
// panic, starts with the intersection of acq over the instructions that
// may panic: the panic came from one of them, after what completed there.
func (o *Order) local(m uint32, record bool) (exit, deferAcq *bitset.BitSet) {
	fn := o.f.Func(m)
	if fn == nil || !o.f.Analyzed(m) || len(fn.Blocks) == 0 {
		return o.empty, o.empty
	}
	n := len(fn.Blocks)
	outMay, outAcq := make([]*bitset.BitSet, n), make([]*bitset.BitSet, n)
	// Deferred events run when the function returns (or panics), each
	// only if its defer statement ran.
	type deferredEvent struct {
		ev    uint32
		block *ssa.BasicBlock // of the defer statement
	}
	var deferred []deferredEvent
	defers := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Defer); ok {
				defers = true
				for _, ev := range o.evOf[instr] {
					deferred = append(deferred, deferredEvent{ev, b})
				}
			}
		}
	}
	recovers := defers && fn.Recover != nil && o.recovers(m)
	var panicAcq *bitset.BitSet
	changed := false
	visit := func(b *ssa.BasicBlock, may, acq *bitset.BitSet) {
		recovered := b == fn.Recover
		var cur *localSets // shared by the instructions between two events
		for _, ev := range o.blockEv[b] {
			may = may.Clone().Set(uint(ev))
			acq = acq.Clone().Set(uint(ev))
		}
		for _, instr := range b.Instrs {
			if record {
				if cur == nil || cur.may != may || cur.acq != acq {
					cur = &localSets{may, acq}
				}
				o.atInstr[instr] = cur
			}
			_, returns := instr.(*ssa.Return)
			if _, ok := instr.(*ssa.RunDefers); ok {
				returns = true
			}
			if defers && !recovered {
				panics := mayPanic(instr) && o.unwindsAt(m, instr)
				if panics {
					panicAcq = meet(panicAcq, acq)
				}
				if panics || returns {
					deferAcq = meet(deferAcq, acq)
				}
			}
			evs := o.evOf[instr]
			if _, ok := instr.(*ssa.Defer); ok {
				evs = nil // runs at return
			}
			for _, ev := range evs {
				may, acq = o.step(may, acq, ev, true)
			}
			if returns {
				// A deferred acquire has completed if its defer statement
				// ran on every path here; not so after a recovered panic,
				// which may have come before it.
				for _, d := range deferred {
					may, acq = o.step(may, acq, d.ev, !recovered && d.block.Dominates(b))
				}
			}
			i, ok := o.cg.callOf[instr]
			if !ok || o.cg.kind[i] != plainCall {
				continue
			}
			var must *bitset.BitSet
			callees := o.callees(i)
			for _, m2 := range callees {
				if !may.IsSuperSet(o.mayExec[m2]) {
					may = may.Union(o.mayExec[m2])
				}
				if !o.f.Analyzed(m2) {
					must = o.empty
				}
				must = intersect(must, o.mustExec[m2])
			}
			if must != nil && !acq.IsSuperSet(must) {
				acq = acq.Union(must)
			}
		}
		if outMay[b.Index] == nil || !outMay[b.Index].Equal(may) || !outAcq[b.Index].Equal(acq) {
			outMay[b.Index], outAcq[b.Index] = may, acq
			changed = true
		}
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			exit = intersect(exit, acq)
		}
	}
	// Termination: the input of every block only moves down the lattice
	// (may grows by union, acq shrinks by intersection from "not reached"),
	// so each block's out sets change at most 2|events|+1 times, and a
	// round that changes none is the last.
	for changed = true; changed; {
		changed = false
		o.work += uint64(len(fn.Blocks))
		exit, deferAcq, panicAcq = nil, nil, nil
		for _, b := range fn.Blocks {
			if b == fn.Recover {
				continue
			}
			may, acq := o.empty, o.empty
			if b.Index != 0 {
				may, acq = nil, nil
				for _, p := range b.Preds {
					if outMay[p.Index] == nil {
						continue // not reached yet: the top of both lattices
					}
					may = union(may, outMay[p.Index])
					if acq == nil {
						acq = outAcq[p.Index]
					} else {
						acq = acq.Intersection(outAcq[p.Index])
					}
				}
				if may == nil {
					continue
				}
			}
			visit(b, may, acq)
		}
		// Without a deferred call that may recover, a panic goes on up; with
		// nothing that may panic, there is none.
		if recovers && panicAcq != nil {
			visit(fn.Recover, o.mayExec[m], panicAcq) // a panic may come from anywhere in m
		}
	}
	if exit == nil {
		exit = o.empty // never returns
	}
	if deferAcq == nil {
		deferAcq = o.empty // never runs its deferred calls
	}
	return exit, deferAcq
}

// step adds event ev to may and, if acquired and tracked, to acq; it
// copies a set before changing it.
func (o *Order) step(may, acq *bitset.BitSet, ev uint32, acquired bool) (*bitset.BitSet, *bitset.BitSet) {
	if !may.Test(uint(ev)) {
		may = may.Clone().Set(uint(ev))
	}
	if e := &o.events[ev]; acquired && e.tracked() && !acq.Test(uint(ev)) {
		acq = acq.Clone().Set(uint(ev))
	}
	return may, acq
}

// mayPanic reports whether instr may panic when it runs, or end its
// goroutine by runtime.Goexit: a call (the callee may; a builtin unless it
// never does), RunDefers (a deferred call may), and the run-time panics of
// the Go specification: a nil dereference, an index or slice out of range,
// an integer division by zero, a negative shift count, a comparison or map
// key of an interface holding an incomparable value, a failed type
// assertion, a send on or close of a closed channel, an assignment to a
// nil map, a slice too short for an array pointer, a make with a bad size,
// a method value of a nil interface in a go or defer statement. When
// unsure, it says yes. A receive never panics.
func mayPanic(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.Call:
		if b, ok := in.Call.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "real", "imag", "complex", "min", "max", "print", "println", "recover":
				return false
			}
		}
		return true
	case *ssa.UnOp:
		return in.Op == token.MUL && !nonNil(in.X)
	case *ssa.Store:
		return !nonNil(in.Addr)
	case *ssa.FieldAddr:
		return !nonNil(in.X)
	case *ssa.IndexAddr:
		// An index into an array variable checked by the compiler.
		_, isConst := in.Index.(*ssa.Const)
		return !isConst || !nonNil(in.X) || !isArrayPointer(in.X.Type())
	case *ssa.BinOp:
		switch in.Op {
		case token.QUO, token.REM:
			if k, ok := in.Y.(*ssa.Const); ok && k.Value != nil && constant.Sign(k.Value) != 0 {
				return false
			}
			b, ok := in.X.Type().Underlying().(*types.Basic)
			return !ok || b.Info()&(types.IsFloat|types.IsComplex) == 0
		case token.SHL, token.SHR:
			if _, ok := in.Y.(*ssa.Const); ok {
				return false
			}
			b, ok := in.Y.Type().Underlying().(*types.Basic)
			return !ok || b.Info()&types.IsUnsigned == 0
		case token.EQL, token.NEQ:
			return !plainComparable(in.X.Type())
		}
		return false
	case *ssa.Lookup:
		m, ok := in.X.Type().Underlying().(*types.Map)
		return !ok || !plainComparable(m.Key())
	case *ssa.TypeAssert:
		return !in.CommaOk
	case *ssa.Go:
		return in.Call.IsInvoke() // a method of a nil interface; a nil function value is fatal
	case *ssa.Defer:
		return in.Call.IsInvoke() // a nil function value panics when the call runs
	case *ssa.MakeChan:
		k, ok := in.Size.(*ssa.Const)
		return !ok || k.Value == nil || constant.Compare(k.Value, token.GTR, constant.MakeInt64(1024))
	case *ssa.MakeMap:
		_, ok := in.Reserve.(*ssa.Const)
		return in.Reserve != nil && !ok
	case *ssa.Select:
		for _, st := range in.States {
			if st.Dir == types.SendOnly {
				return true
			}
		}
		return false
	case *ssa.Alloc, *ssa.Phi, *ssa.Extract, *ssa.Field, *ssa.Jump, *ssa.If, *ssa.Return,
		*ssa.DebugRef, *ssa.MakeClosure, *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface,
		*ssa.Convert, *ssa.Next, *ssa.Range:
		return false
	}
	return true
}

// nonNil reports whether pointer v cannot be nil: the address of a
// variable, of a field or an element (computed only if it did not panic),
// or a captured variable of a function literal.
func nonNil(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc, *ssa.Global, *ssa.FieldAddr, *ssa.IndexAddr:
		return true
	case *ssa.FreeVar:
		// A function literal's free variables are the addresses of the
		// variables it captures (bound method wrappers capture values).
		return v.Parent() != nil && v.Parent().Parent() != nil
	}
	return false
}

func isArrayPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isArray(p.Elem())
}

// plainComparable reports whether comparing or hashing values of type t
// never panics: no interface (whose dynamic value may be incomparable) or
// type parameter inside. Termination: the recursion goes into array
// elements and struct fields, and a type cannot hold itself but through a
// pointer, slice, map or the like, where it stops.
func plainComparable(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Chan:
		return true
	case *types.Array:
		return plainComparable(t.Elem())
	case *types.Struct:
		for i := range t.NumFields() {
			if !plainComparable(t.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

func union(a, b *bitset.BitSet) *bitset.BitSet {
	if a == nil || b.IsSuperSet(a) {
		return b
	}
	if a.IsSuperSet(b) {
		return a
	}
	return a.Union(b)
}

// meet is intersect without a copy when one set holds the other.
func meet(a, b *bitset.BitSet) *bitset.BitSet {
	switch {
	case a == nil || a != b && a.IsSuperSet(b):
		return b
	case b.IsSuperSet(a):
		return a
	}
	return a.Intersection(b)
}

func intersect(a, b *bitset.BitSet) *bitset.BitSet {
	if a == nil {
		return b
	}
	return a.Intersection(b)
}

// entries computes the sets at each function's entry over the call graph:
// may is the union over callers, acq the intersection. A deferred call
// gets what its caller has acquired wherever it runs its deferred calls.
// Roots, inits, goroutines, and functions without known callers start
// with nothing acquired.
func (o *Order) entries() {
	f := o.f
	nM := f.Size(pointsto.DomM)
	type inEdge struct{ caller, site uint32 }
	in := make([][]inEdge, nM)
	noAcq := make([]bool, nM)
	for _, t := range f.Tuples("entry") {
		noAcq[t[0]] = true
	}
	for m, sites := range o.cg.sites {
		for _, i := range sites {
			for _, m2 := range o.callees(i) {
				switch o.cg.kind[i] {
				case plainCall, deferCallKind:
					in[m2] = append(in[m2], inEdge{uint32(m), i})
				case goCallKind:
					noAcq[m2] = true
				}
			}
		}
	}
	o.entryMay = make([]*bitset.BitSet, nM)
	o.entryAcq = make([]*bitset.BitSet, nM)
	for m := range nM {
		o.entryMay[m] = o.empty
		if noAcq[m] || len(in[m]) == 0 {
			o.entryAcq[m] = o.empty
		}
	}
	// Termination: entryMay only grows and entryAcq, once set, only
	// shrinks (an intersection over callers whose sets move the same
	// way), inside the events; a round that changes neither is the last,
	// so there are at most 2|events|·|M|+1 rounds.
	for changed := true; changed; {
		changed = false
		o.work += uint64(nM)
		for m := range nM {
			may := o.entryMay[m]
			var acq *bitset.BitSet
			for _, e := range in[m] {
				instr := o.f.Call(e.site)
				local := o.localAt(instr)
				localMay, localAcq := local.may, local.acq
				if o.cg.kind[e.site] == deferCallKind {
					localMay, localAcq = o.mayExec[e.caller], o.deferAcq[e.caller]
				}
				may = union(may, o.entryMay[e.caller].Union(localMay))
				if !noAcq[m] && o.entryAcq[e.caller] != nil {
					acq = intersect(acq, o.entryAcq[e.caller].Union(localAcq))
				}
			}
			if !may.Equal(o.entryMay[m]) {
				o.entryMay[m] = may
				changed = true
			}
			if !noAcq[m] && acq != nil && (o.entryAcq[m] == nil || !acq.Equal(o.entryAcq[m])) {
				o.entryAcq[m] = acq
				changed = true
			}
		}
	}
	for m := range nM {
		if o.entryAcq[m] == nil { // reached only from callers that are never reached
			o.entryAcq[m] = o.empty
		}
	}
}

// localSets are may and acq inside a function, at an instruction (see
// Order): one map of them, each shared by the instructions between two
// events, not two maps of sets, as every instruction of every function
// has them.
type localSets struct{ may, acq *bitset.BitSet }

// localAt returns the sets inside instr's function at instr.
func (o *Order) localAt(instr ssa.Instruction) localSets {
	if s, ok := o.atInstr[instr]; ok {
		return *s
	}
	return localSets{o.empty, o.empty}
}

func (o *Order) funcOf(instr ssa.Instruction) uint32 {
	m, _ := o.f.FuncID(instr.Parent())
	return m
}

// may is the set of the dataflow at instr (see Order), as the two sets
// whose union it is: the rules only test members, and a union per question
// cost a copy of the events' set each time.
func (o *Order) may(instr ssa.Instruction) maySet {
	return maySet{o.entryMay[o.funcOf(instr)], o.localAt(instr).may}
}

// maySet is may at an instruction: the union of entry, at its function's
// entry, and local, inside the function.
type maySet struct{ entry, local *bitset.BitSet }

// Test reports whether event ev may have run before the instruction.
func (m maySet) Test(ev uint32) bool { return m.entry.Test(uint(ev)) || m.local.Test(uint(ev)) }

// acq is the set of the dataflow at instr (see Order).

func (o *Order) acq(instr ssa.Instruction) *bitset.BitSet {
	if s, ok := o.acqAt[instr]; ok {
		return s
	}
	s := o.entryAcq[o.funcOf(instr)].Union(o.localAt(instr).acq)
	o.acqAt[instr] = s
	return s
}

// closedBranch returns the block that a comma-ok receive enters when ok is
// false (as range over a channel does when it ends), if that block has no
// other way in: reaching it means the receive saw the channel closed.
func closedBranch(instr ssa.Instruction) *ssa.BasicBlock {
	recv, ok := instr.(*ssa.UnOp)
	if !ok || !recv.CommaOk {
		return nil
	}
	for _, ref := range *recv.Referrers() {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == 1 {
			if b := onlyBranch(ext, 1); b != nil {
				return b
			}
		}
	}
	return nil
}

// onlyBranch returns successor succ (0: then, 1: else) of an If on cond,
// if that block has no other way in; or nil.
func onlyBranch(cond ssa.Value, succ int) *ssa.BasicBlock {
	for _, ref := range *cond.Referrers() {
		if br, ok := ref.(*ssa.If); ok && br.Cond == cond {
			if b := br.Block().Succs[succ]; len(b.Preds) == 1 {
				return b
			}
		}
	}
	return nil
}

// selectCases refines the events of selects. A select completes with the
// partner of one of its cases, so it is an acquire only if every case that
// can complete has a partner we see: a case without one (a receive from a
// channel only the runtime sends on, such as a Ticker's) may be the one
// that completes it, after none of the other cases' partners. A case
// without a partner on channels whose every operation we see (openCase
// false: made by make in code we analyze, never handed to code we do not)
// never completes: a receive completes only with a send on its channel or
// after its close (the Go memory model's two ways), an unbuffered send
// only with a receive (a send on a closed channel panics, so the code
// after the select does not run), and a case on a nil channel never; so
// the select completes with another case's partner. (A buffered send
// case needs no partner: such a select is no acquire, bufferedCase.) And
// each case of a blocking select completes, at the entry of the branch
// only that case takes, after that case's own partners (evCase): the
// branch of a case whose channel is closed follows the close, whatever
// the other cases wait for.
func (o *Order) selectCases(cases map[uint32][]uint32, evOfE map[uint32]uint32, caseCands map[[2]uint32][]uint32) {
	f := o.f
	open := map[[2]uint32]bool{}
	for t := range o.gs.Tuples("openCase") {
		open[[2]uint32{t[0], t[1]}] = true
	}
	// In E order, so that the case events get the same ids in every run
	// (NewOrder's reuse compares them).
	for _, e := range slices.Sorted(maps.Keys(cases)) {
		vs := cases[e]
		sel, ok := f.Access(e).(*ssa.Select)
		if !ok {
			continue
		}
		ev := evOfE[e]
		for _, v := range vs {
			if len(caseCands[[2]uint32{e, v}]) == 0 && open[[2]uint32{e, v}] {
				o.events[ev].acquire = false
			}
		}
		if !sel.Blocking {
			continue
		}
		for i, st := range sel.States {
			b := caseBranch(sel, i)
			if b == nil || st.Dir != types.RecvOnly {
				continue // a send case completes when its value is taken: no acquire
			}
			var cands []uint32
			for _, v := range vs {
				if f.Value(v) == st.Chan {
					cands = append(cands, caseCands[[2]uint32{e, v}]...)
				}
			}
			if len(cands) == 0 {
				continue
			}
			id := uint32(len(o.events))
			o.events = append(o.events, event{kind: evCase, instr: sel, fn: f.AccessFunc(e), id: e, acquire: true, cands: cands})
			o.blockEv[b] = append(o.blockEv[b], id)
		}
	}
}

// caseBranch returns the block that the code enters only when select sel
// took case i: the true branch of chosen == i, with no other way in; or
// nil.
func caseBranch(sel *ssa.Select, i int) *ssa.BasicBlock {
	for _, ref := range *sel.Referrers() {
		ext, ok := ref.(*ssa.Extract)
		if !ok || ext.Index != 0 {
			continue
		}
		for _, ref2 := range *ext.Referrers() {
			cmp, ok := ref2.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL || cmp.X != ssa.Value(ext) {
				continue
			}
			if k, ok := cmp.Y.(*ssa.Const); ok && k.Value != nil && k.Int64() == int64(i) {
				if b := onlyBranch(cmp, 0); b != nil {
					return b
				}
			}
		}
	}
	return nil
}

// singleOnly reports whether only single goroutines run m.
func (o *Order) singleOnly(m uint32) bool {
	for _, g := range o.gs.Of(m) {
		if !o.gs.List[g].Single {
			return false
		}
	}
	return true
}

// atomicObservations adds an acquire at each branch that an atomic
// operation takes only when it read a value other than zero: a loop that
// waits until Load returns a constant other than 0 or a pointer that is
// never nil (notNil), a CompareAndSwap that succeeds with an old value
// other than 0, an Add whose result minus the delta is not 0. If the location starts at zero and is written only by
// atomic operations, that value was stored by one of them, which is then
// synchronized before the branch (the Go memory model on sync/atomic).
func (o *Order) atomicObservations() {
	f := o.f
	notZero := map[uint32]bool{}
	for t := range o.gs.Tuples("notZeroInit") {
		notZero[t[0]] = true
	}
	cands := map[uint32][]uint32{}
	for t := range o.gs.Tuples("atomicCand") {
		cands[t[0]] = append(cands[t[0]], t[1])
	}
	writes := map[uint32]uint32{} // atomic write E -> event
	for _, t := range f.Tuples("atomicAccess") {
		e := t[0]
		call, ok := f.Access(e).(*ssa.Call)
		if !ok || notZero[e] || cands[e] == nil {
			continue
		}
		b := observedBranch(call)
		if b == nil {
			continue
		}
		ev := uint32(len(o.events))
		fn := o.funcOf(call)
		o.events = append(o.events, event{kind: evObserved, instr: call, fn: fn, id: e, acquire: true})
		o.blockEv[b] = append(o.blockEv[b], ev)
		for _, w := range cands[e] {
			if w == e && o.singleOnly(fn) {
				continue // its own write is not what it read
			}
			wev, ok := writes[w]
			if !ok {
				wi := f.Access(w)
				wev = o.addEvent(event{kind: evAtomicWrite, instr: wi, fn: o.funcOf(wi), id: w})
				writes[w] = wev
			}
			o.events[ev].cands = append(o.events[ev].cands, wev)
		}
	}
}

// observedBranch returns the block that the code enters only when atomic
// call read a value other than zero, if that block has no other way in.
func observedBranch(call *ssa.Call) *ssa.BasicBlock {
	callee := call.Call.StaticCallee()
	if callee == nil {
		return nil
	}
	name := callee.Name()
	args := call.Call.Args
	branch := func(cond ssa.Value, taken int) *ssa.BasicBlock {
		for _, ref := range *cond.Referrers() {
			if br, ok := ref.(*ssa.If); ok && br.Cond == cond {
				if b := br.Block().Succs[taken]; len(b.Preds) == 1 {
					return b
				}
			}
		}
		return nil
	}
	switch {
	case strings.HasPrefix(name, "CompareAndSwap") && len(args) == 3:
		// Success read the old value; failure read another one.
		old, ok := args[1].(*ssa.Const)
		if !ok || old.Value == nil || old.Value.Kind() != constant.Int {
			return nil
		}
		taken := 0
		if constant.Sign(old.Value) == 0 {
			taken = 1
		}
		if b := branch(call, taken); b != nil {
			return b
		}
		for _, ref := range *call.Referrers() {
			if not, ok := ref.(*ssa.UnOp); ok && not.Op == token.NOT {
				return branch(not, 1-taken)
			}
		}
	case name == "Load" && isBool(call.Type()):
		// atomic.Bool: the true branch read true, which only a Store, Swap
		// or CompareAndSwap can have put there.
		if b := branch(call, 0); b != nil {
			return b
		}
		for _, ref := range *call.Referrers() {
			if not, ok := ref.(*ssa.UnOp); ok && not.Op == token.NOT {
				return branch(not, 1)
			}
		}
	case strings.HasPrefix(name, "Load") || strings.HasPrefix(name, "Add"):
		for _, ref := range *call.Referrers() {
			cmp, ok := ref.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
				continue
			}
			c := cmp.Y
			if c == ssa.Value(call) {
				c = cmp.X
			}
			if strings.HasPrefix(name, "Load") && notNil(c) {
				if cmp.Op == token.EQL {
					return branch(cmp, 0)
				}
				return branch(cmp, 1)
			}
			k, ok := c.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
				continue
			}
			read := k.Value
			if strings.HasPrefix(name, "Add") {
				d, ok := args[len(args)-1].(*ssa.Const)
				if !ok || d.Value == nil || d.Value.Kind() != constant.Int {
					continue
				}
				read = constant.BinaryOp(read, token.SUB, d.Value)
			}
			if constant.Sign(read) == 0 {
				continue
			}
			if cmp.Op == token.EQL {
				return branch(cmp, 0)
			}
			return branch(cmp, 1)
		}
	}
	return nil
}

// notNil reports whether pointer v is never nil: the address of a
// variable, field or element (taking it from a nil pointer panics instead),
// a conversion of one (to unsafe.Pointer), or the one value ever stored in
// a variable that holds one. Termination: each step goes to an operand of
// v or to the value stored before the load v on every path (StoredOnce),
// defined earlier still: the instructions visited strictly dominate one
// another, so none comes twice.
func notNil(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc, *ssa.Global, *ssa.FieldAddr, *ssa.IndexAddr:
		return true
	case *ssa.Convert:
		return notNil(v.X)
	case *ssa.ChangeType:
		return notNil(v.X)
	case *ssa.UnOp:
		if cell, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			w := pointsto.StoredOnce(cell, v)
			return w != nil && notNil(w)
		}
	}
	return false
}

// recovers reports whether a function that m defers may call recover, so
// that m may return normally after a panic (through its Recover block).
func (o *Order) recovers(m uint32) bool {
	for _, i := range o.cg.sites[m] {
		if o.cg.kind[i] != deferCallKind {
			continue
		}
		for _, callee := range o.callees(i) {
			if fn := o.f.Func(callee); fn != nil && callsRecover(fn) {
				return true
			}
		}
	}
	return false
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}
