package races

import (
	"cmp"
	"encoding/binary"
	"maps"
	"slices"

	"github.com/bits-and-blooms/bitset"

	"github.com/chordgo/chordgo/condmustnot"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// Bounds of the proof per call path: the call levels above an access it
// follows, and the call sites it looks at for one side of one goroutine
// pair. Past them a side is not proved, which is sound.
const (
	callPathDepth = 4
	callPathSites = 64
)

// callPaths proves pairs of accesses one call path at a time, where
// neither the order (mhp) nor the locks (condmustnot) hold for every path
// at once: golang-lru's list Init, run by NewLRU's NewList before the go
// statement that starts the eviction goroutine, and by Purge under c.mu.
//
// Access a of function F, run by goroutine ga, is kept apart from access
// b run by gb when F is neither a root nor where ga starts, ga makes at
// least one call of F, and every call site i of F in a function ga runs
// (go statements aside: their function runs in another goroutine)
// satisfies one of
//
//   - order: i is a plain call that mhp.CallOrder.CallOrdered orders with b
//     (b before the call starts, or the call's return before b);
//   - locks: the locks held at a when F is entered from i
//     (condmustnot.GoroutineLocksets.ViaCalls, following the chain of call
//     sites up to this one) and b's locks in gb have a common lock, by
//     condmustnot's proofs for instances;
//   - above: i's caller satisfies the same, one level up (at most
//     callPathDepth levels, never through a function already on the
//     chain).
//
// Sound: every run of a in ga is inside an activation of F that a call
// made in ga started (F is not where ga starts and no root, and a call
// stack belongs to one goroutine: the call graph's calls in the functions
// ga runs are all the ways ga enters F), so the run is inside some call
// site's call, and that call either is ordered with b as a whole, or holds
// the lock on that path, or is itself inside a call of its caller that
// one of the three covers. Each side of a pair is tried (a's paths against
// b, b's against a).
type callPaths struct {
	f       *pointsto.Facts
	gs      *mhp.Goroutines
	order   *mhp.Order
	li      *lockInstances
	callers [][]uint32 // by M: its call sites, sorted
	roots   []bool     // by M
	starts  func(g, m uint32) bool

	// The lock proofs' instances of an access entered through a chain,
	// one per content (access, goroutine, locks held: the proofs read
	// nothing else), with the access and goroutine of each; the pairs of
	// instances the first pass asks for, and the pairs proved.
	instances map[string]uint32
	owner     map[uint32][2]uint32
	queries   [][2]uint32
	protected map[[2]uint32]bool

	memo     *sideMemo
	bs       map[uint32]bInG           // of the eb being proved, by gb
	orderIDs map[*mhp.CallOrder]uint32 // numbers the CallOrders
	// Of the side being walked: the sites of the chain, b's CallOrder,
	// and memo.ordered.
	stack     []uint32
	callOrder *mhp.CallOrder
	ordered   map[uint32]bool
}

// sideMemo keeps answers of sides across their b accesses: a walk reads
// b and gb only through their CallOrder (one per what CallOrdered reads of
// them) and whether b holds a lock (the two: b's class, bInG), so the
// sides of all the eb with one class share their walks. The answers are dropped when they pass
// callPathMemo entries; each is computed again when needed, so dropping
// them changes no answer.
type sideMemo struct {
	ordered map[uint64]map[uint32]bool // CallOrdered by (CallOrder's number, ga) and call site
	// walks by a's function, then (ga, b's class): the sides of one
	// function come in a row (prove), so the row they read stays small
	// and in the cache, where one map of every walk (up to callPathMemo
	// entries) missed it at each lookup: 23 of 159 s of CPU in the second
	// demand-loop run on bbolt's tests.
	walks   map[uint32]map[uint64]walk
	mayLock map[[3]uint32]bool // by (a, ga, b's class): lockable's answers
	// chainIDs numbers the chains the walks visit: by the number of a
	// chain and a call site above it, the chain with that site added (the
	// empty chain is 0); below gives a numbered chain's (chain, site).
	chainIDs map[[2]uint32]uint32
	below    [][2]uint32
	via      map[[3]uint32]uint32 // the instance of (ea, ga, chain), noLock when none
	asked    map[[2]uint32]bool   // the queries asked
	size     int
}

// walk is what the walk from a side's function finds without lock
// queries: the chains (numbers) at which it asks them, where b holds a
// lock, and whether it proves the side without them.
type walk struct {
	chains []uint32
	proved bool
}

// callPathMemo bounds a sideMemo's entries: about 100 bytes each. (A
// variable for the test that dropping answers changes none.)
var callPathMemo = 1 << 22

// lockableFirst skips the sides lockable rules out. (A variable for the
// test that skipping them changes no answer.)
var lockableFirst = true

// bInG is what the sides of one b in gb read of it: its CallOrder, with
// its number, its class (the number and whether b holds a lock: all a
// walk reads of b and gb) and its lock instance.
type bInG struct {
	co           *mhp.CallOrder
	order, class uint32
	b            uint32
}

func newSideMemo() *sideMemo {
	return &sideMemo{ordered: map[uint64]map[uint32]bool{}, walks: map[uint32]map[uint64]walk{}, mayLock: map[[3]uint32]bool{},
		chainIDs: map[[2]uint32]uint32{}, below: [][2]uint32{{}}, via: map[[3]uint32]uint32{}, asked: map[[2]uint32]bool{}}
}

// callChain is a chain of call sites from a function down to an access's
// (innermost first), with its number (sideMemo.chainIDs; unnumbered: no
// collecting walk visited it).
type callChain struct {
	sites []uint32
	id    uint32
}

const unnumbered = ^uint32(0)

// callPathSide is one side of a goroutine pair: access a in ga, against b
// in gb, whose lock instance is b (noLock: b holds none in gb).
type callPathSide struct{ ea, ga, eb, gb, b uint32 }

func newCallPaths(f *pointsto.Facts, gs *mhp.Goroutines, order *mhp.Order, li *lockInstances, cg map[uint32][]uint32) *callPaths {
	n := f.Size(pointsto.DomM)
	cp := &callPaths{f: f, gs: gs, order: order, li: li, callers: make([][]uint32, n), roots: make([]bool, n),
		starts: threadStarts(gs), instances: map[string]uint32{}, owner: map[uint32][2]uint32{},
		orderIDs: map[*mhp.CallOrder]uint32{}}
	for i, ms := range cg {
		for _, m := range ms {
			cp.callers[m] = append(cp.callers[m], i)
		}
	}
	for _, is := range cp.callers {
		slices.Sort(is)
	}
	for _, t := range f.Tuples("entry") {
		cp.roots[t[0]] = true
	}
	return cp
}

// sideRef is side k of a list's goroutine pairs: a is the list's e[k].
type sideRef struct {
	list int
	k    int
}

// prove drops from each pair the goroutine pairs that a proof per call
// path keeps apart, and the pairs left with none.
//
// A side is proved when the walk proves it without lock queries
// (walk.proved), or with the lock queries proved at the chains where the
// walk asks them (lockedChains): the walk can only gain from a proved
// query (it then goes no further up from that site, and has more call
// sites left), so the first implies the second. The first pass asks
// every lock query any side may need, so that one run of the lock rules
// answers them all, and answers each side by the walk without queries;
// the second answers, with the queries proved, the sides left that have
// one.
func (cp *callPaths) prove(locks *condmustnot.Locksets, unique func(pointsto.Ctx) bool, pairs []pair) ([]pair, error) {
	// Pairs with one shared id have the same accesses and one goroutine
	// pair list: each list is proved once, and replaced, not changed.
	lists := distinctLists(pairs)
	first := make([]uint, len(lists)+1) // the bit of each list's first goroutine pair
	byB := map[uint32][]sideRef{}
	for l, p := range lists {
		first[l+1] = first[l] + uint(len(p.gp))
		for k := range 2 {
			byB[p.e[1-k]] = append(byB[p.e[1-k]], sideRef{l, k})
		}
	}
	ebs := slices.Sorted(maps.Keys(byB))
	// An eb's sides by a's function, then a: the sides of one function
	// share walks, those of one a their queries.
	aOf := func(r sideRef) uint32 { return lists[r.list].e[r.k] }
	for _, refs := range byB {
		slices.SortStableFunc(refs, func(r, q sideRef) int {
			return cmp.Or(cmp.Compare(cp.f.AccessFunc(aOf(r)), cp.f.AccessFunc(aOf(q))), cmp.Compare(aOf(r), aOf(q)))
		})
	}
	proved := bitset.New(first[len(lists)])
	// each calls side for every side of eb's goroutine pairs (not yet
	// proved, with left), with the goroutine pair's bit.
	each := func(eb uint32, left bool, side func(s callPathSide, bit uint)) {
		cp.bs = map[uint32]bInG{}
		for _, r := range byB[eb] {
			p := lists[r.list]
			for j, gp := range p.gp {
				bit := first[r.list] + uint(j)
				if left && proved.Test(bit) {
					continue
				}
				ga, gb := gp[r.k], gp[1-r.k]
				side(callPathSide{p.e[r.k], ga, eb, gb, cp.bIn(eb, gb).b}, bit)
			}
		}
	}
	// First pass. A side whose b holds no lock has no query to ask, nor
	// does one that no lock along its call paths can prove (lockable).
	// The sides of one a's function with one ga and b's class have one
	// walk (looked up in the memo's row of that function), and those of
	// one a with one (ga, gb) the same queries: each is asked once in a
	// row of them.
	cp.memo = newSideMemo()
	asked := map[uint64]bool{}
	a := unnumbered
	for _, eb := range ebs {
		clear(asked)
		each(eb, false, func(s callPathSide, bit uint) {
			if s.ea != a {
				a = s.ea
				clear(asked)
			}
			if s.b != noLock && lockableFirst && !cp.lockable(s) {
				return
			}
			w := cp.walk(s)
			if q := uint64(s.ga)<<32 | uint64(s.gb); len(w.chains) > 0 && !asked[q] {
				asked[q] = true
				for _, c := range w.chains {
					cp.ask(s, c)
				}
			}
			if w.proved {
				proved.Set(bit)
			}
		})
	}
	cp.memo = nil
	var err error
	if cp.protected, err = locks.ProveInstances(cp.li.insts, unique, cp.queries); err != nil {
		return nil, err
	}
	// The second pass, for the sides left with a query proved: (a, ga,
	// b), by eb.
	withProved := map[uint32]map[[3]uint32]bool{}
	for q := range cp.protected {
		if o, ok := cp.owner[q[0]]; ok {
			eb := cp.li.insts[q[1]].E
			if withProved[eb] == nil {
				withProved[eb] = map[[3]uint32]bool{}
			}
			withProved[eb][[3]uint32{o[0], o[1], q[1]}] = true
		}
	}
	cp.memo = newSideMemo()
	for _, eb := range ebs {
		if withProved[eb] == nil {
			continue
		}
		each(eb, true, func(s callPathSide, bit uint) {
			if !withProved[eb][[3]uint32{s.ea, s.ga, s.b}] {
				return
			}
			if locked := cp.lockedChains(s); len(locked) > 0 && cp.covers(s, pathLocks{held: func(c uint32) bool { return slices.Contains(locked, c) }}) {
				proved.Set(bit)
			}
		})
	}
	cp.memo, cp.bs = nil, nil
	left := map[int][][2]uint32{} // by shared id
	for l, p := range lists {
		left[p.shared] = keptPairs(p.gp, func(j int, _ [2]uint32) bool { return proved.Test(first[l] + uint(j)) })
	}
	for i := range pairs {
		pairs[i].gp = left[pairs[i].shared]
	}
	return slices.DeleteFunc(pairs, func(p pair) bool { return len(p.gp) == 0 }), nil
}

// walk returns s's walk. It reads a only through its function F (where
// it starts, and where it stops going up): its answer is that of every
// access of F with the same ga and b's CallOrder.
func (cp *callPaths) walk(s callPathSide) walk {
	fn := cp.f.AccessFunc(s.ea)
	key := uint64(s.ga)<<32 | uint64(cp.bIn(s.eb, s.gb).class)
	w, seen := cp.memo.walks[fn][key]
	if !seen {
		cp.bound()
		if s.b == noLock {
			w.proved = cp.covers(s, pathLocks{})
		} else {
			w.chains = []uint32{}
			w.proved = cp.covers(s, pathLocks{collect: &w.chains})
		}
		row := cp.memo.walks[fn]
		if row == nil {
			row = map[uint64]walk{}
			cp.memo.walks[fn] = row
		}
		row[key] = w
		cp.memo.size += 1 + len(w.chains)
	}
	return w
}

// lockable reports whether s, whose b holds a lock, could be proved if
// every lock query asked for it were proved: whether the walk proves it
// taking as covered each call site where a holds some lock
// (callPaths.via). A query of an instance that holds no lock is never
// proved (noLock), so a side for which this fails is proved neither by
// its walk nor in the second pass, and its queries need not be asked.
//
// So skipping those sides changes no answer: this walk visits the sites
// of either walk in the same order and takes each site they take, and a
// site it takes without going up spends no budget on the sites above
// it, so where they prove s it does. Unlike the collecting walk, it
// stops at the first site not covered: most sides fail on the first path
// up from a's function, a few sites, where the collecting walk visits up
// to callPathSites and asks a query at each.
func (cp *callPaths) lockable(s callPathSide) bool {
	key := [3]uint32{s.ea, s.ga, cp.bIn(s.eb, s.gb).class}
	ok, seen := cp.memo.mayLock[key]
	if !seen {
		cp.bound()
		ok = cp.covers(s, pathLocks{held: func(c uint32) bool { return cp.via(s, c) != noLock }})
		cp.memo.mayLock[key] = ok
		cp.memo.size++
	}
	return ok
}

// pathLocks is what a walk does at a call site not ordered with b: with
// collect, it appends the site's chain (a lock query to ask there) and
// goes on to the next site; with held, the site is covered when held
// says a lock keeps the chain apart from b. With neither, only the order
// covers a site.
type pathLocks struct {
	collect *[]uint32
	held    func(chain uint32) bool
}

// covers is covered from a's function, with the call-site budget of one
// side.
func (cp *callPaths) covers(s callPathSide, locks pathLocks) bool {
	bg := cp.bIn(s.eb, s.gb)
	cp.callOrder = bg.co
	key := uint64(bg.order)<<32 | uint64(s.ga)
	if cp.ordered = cp.memo.ordered[key]; cp.ordered == nil {
		cp.ordered = map[uint32]bool{}
		cp.memo.ordered[key] = cp.ordered
	}
	budget := callPathSites
	return cp.covered(s, cp.f.AccessFunc(s.ea), callChain{cp.stack[:0], 0}, &budget, locks)
}

// bIn returns what the sides of eb, being proved, read of it in gb.
func (cp *callPaths) bIn(eb, gb uint32) bInG {
	bg, ok := cp.bs[gb]
	if !ok {
		bg.co = cp.order.CallOrder(cp.f.Access(eb), gb)
		if bg.order, ok = cp.orderIDs[bg.co]; !ok {
			bg.order = uint32(len(cp.orderIDs))
			cp.orderIDs[bg.co] = bg.order
		}
		if bg.b = cp.li.in(eb, gb); bg.b == noLock {
			bg.class = 2 * bg.order
		} else {
			bg.class = 2*bg.order + 1 // the walk collects lock queries
		}
		cp.bs[gb] = bg
	}
	return bg
}

// lockedChains returns the chains at which the collecting walk asks s's
// lock queries and the query is proved. A query of a's instance against
// b's is asked for s only at the chains of s's walk, so these are the
// only chains where a lock keeps s's a apart from b.
func (cp *callPaths) lockedChains(s callPathSide) []uint32 {
	var locked []uint32
	for _, c := range cp.walk(s).chains {
		if x := cp.via(s, c); x != noLock && cp.protected[[2]uint32{x, s.b}] {
			locked = append(locked, c)
		}
	}
	return locked
}

// bound drops the memo's answers when they pass callPathMemo.
func (cp *callPaths) bound() {
	if cp.memo.size > callPathMemo {
		cp.memo = newSideMemo()
	}
}

// covered reports whether every run of s's access a inside function m
// (chain: the call sites from m down to a's function) is ordered with b
// or under a lock b holds too (the chains locks.held takes). With
// locks.collect, it also appends the chains at which a lock query is to
// be asked, visiting every site without stopping early: a walk that
// stops at the first site not covered visits the same sites up to there,
// and none more where all are, so the answer is the same.
func (cp *callPaths) covered(s callPathSide, m uint32, chain callChain, budget *int, locks pathLocks) bool {
	if len(chain.sites) > callPathDepth || cp.roots[m] || cp.starts(s.ga, m) {
		return false
	}
	called, all := false, true
	for _, i := range cp.callers[m] {
		caller := cp.f.Caller(i)
		if _, runs := slices.BinarySearch(cp.gs.Of(caller), s.ga); !runs {
			continue
		}
		call := cp.f.Call(i)
		if _, ok := call.(*ssa.Go); ok {
			continue // runs m in another goroutine
		}
		if *budget--; *budget < 0 {
			return false
		}
		called = true
		up := cp.above(chain, i, locks.collect != nil || locks.held != nil)
		ok := cp.callOrdered(s, i, call)
		if !ok && locks.collect != nil {
			*locks.collect = append(*locks.collect, up.id)
		} else if !ok && locks.held != nil {
			ok = up.id != unnumbered && locks.held(up.id)
		}
		if !ok && !slices.ContainsFunc(chain.sites, func(j uint32) bool { return cp.f.Caller(j) == caller }) && caller != cp.f.AccessFunc(s.ea) {
			ok = cp.covered(s, caller, up, budget, locks)
		}
		if !ok {
			all = false
			if locks.collect == nil {
				return false
			}
		}
	}
	return called && all
}

// above returns chain with call site i added above it, with its number
// where chain has one and the longer chain has been numbered, or number
// says to number it now (the collecting walk). Its sites share the
// walk's stack: a chain lives while the walk is below it.
func (cp *callPaths) above(chain callChain, i uint32, number bool) callChain {
	up := callChain{append(chain.sites, i), unnumbered}
	cp.stack = up.sites[:0]
	if chain.id == unnumbered {
		return up
	}
	key := [2]uint32{chain.id, i}
	id, ok := cp.memo.chainIDs[key]
	if !ok && number {
		id, ok = uint32(len(cp.memo.below)), true
		cp.memo.chainIDs[key] = id
		cp.memo.below = append(cp.memo.below, key)
		cp.memo.size++
	}
	if ok {
		up.id = id
	}
	return up
}

// sites returns the call sites of numbered chain c, innermost first.
func (cp *callPaths) sites(c uint32) []uint32 {
	var sites []uint32
	for ; c != 0; c = cp.memo.below[c][0] {
		sites = append(sites, cp.memo.below[c][1])
	}
	slices.Reverse(sites)
	return sites
}

// callOrdered is mhp.CallOrder.CallOrdered, kept per call site and side; a
// call from the synchronization primitives or the runtime is never
// ordered here (their events are modeled at their call sites: the call
// above them is).
func (cp *callPaths) callOrdered(s callPathSide, i uint32, call ssa.CallInstruction) bool {
	if fn := call.Parent(); fn.Pkg != nil && modeled(fn.Pkg.Pkg.Path()) {
		return false
	}
	ok, seen := cp.ordered[i]
	if !seen {
		ok = cp.callOrder.CallOrdered(call, s.ga)
		cp.ordered[i] = ok
		cp.memo.size++
	}
	return ok
}

// ask records the lock query of s's access a entered through chain c
// against b.
func (cp *callPaths) ask(s callPathSide, c uint32) {
	if x := cp.via(s, c); x != noLock && !cp.memo.asked[[2]uint32{x, s.b}] {
		cp.memo.asked[[2]uint32{x, s.b}] = true
		cp.memo.size++
		cp.queries = append(cp.queries, [2]uint32{x, s.b})
	}
}

// via returns the lock proofs' instance of s's access a entered through
// chain c, noLock when no lock is known held there.
func (cp *callPaths) via(s callPathSide, c uint32) uint32 {
	key := [3]uint32{s.ea, s.ga, c}
	x, ok := cp.memo.via[key]
	if !ok {
		x = noLock
		if held, known := cp.li.byG.ViaCalls(s.ea, s.ga, cp.sites(c)); known {
			x = cp.instance(s.ea, s.ga, held)
		}
		cp.memo.via[key] = x
		cp.memo.size++
	}
	return x
}

// instance returns the instance of access e in goroutine g holding held,
// one per content, noLock if it holds none.
func (cp *callPaths) instance(e, g uint32, held []condmustnot.Held) uint32 {
	if len(held) == 0 {
		return noLock
	}
	key := binary.LittleEndian.AppendUint32(nil, e)
	key = binary.LittleEndian.AppendUint32(key, g)
	for _, h := range held {
		key = binary.LittleEndian.AppendUint32(key, h.Ptr)
		if h.Read {
			key = append(key, 1)
		} else {
			key = append(key, 0)
		}
	}
	x, ok := cp.instances[string(key)]
	if !ok {
		x = cp.li.add(e, g, held)
		cp.instances[string(key)] = x
		cp.owner[x] = [2]uint32{e, g}
	}
	return x
}
