package races

import (
	"slices"

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
//   - order: i is a plain call that mhp.Order.CallOrdered orders with b
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
	callers map[uint32][]uint32 // by M: its call sites, sorted
	roots   map[uint32]bool     // by M
	starts  func(g, m uint32) bool

	ordered map[callOrderKey]bool
	// orderOnly keeps the answer of a side none of whose lock queries is
	// proved, and asks the chains at which the first pass asks a side's
	// lock queries, by (a's function, ga, eb, gb): neither reads a
	// otherwise (see provedSide and prove).
	orderOnly map[callOrderKey]bool
	asks      map[callOrderKey][]callChain
	// chainIDs numbers the chains the first pass visits: by the number of
	// a chain and a call site above it, the chain with that site added
	// (the empty chain is 0).
	chainIDs map[[2]uint32]uint32
	// The lock proofs' instances of a entered through a chain, by (ea,
	// ga, chain number), noLock when no lock is known held there; the
	// pairs of instances the first pass asks for, and the pairs proved,
	// for the second pass.
	chains    map[[3]uint32]uint32
	queries   [][2]uint32
	asked     map[[2]uint32]bool
	protected map[[2]uint32]bool
}

type callOrderKey struct{ i, ga, eb, gb uint32 }

// callChain is a chain of call sites from a function down to an access's
// (innermost first), with its number (chainIDs; unnumbered: the first pass
// did not visit it).
type callChain struct {
	sites []uint32
	id    uint32
}

const unnumbered = ^uint32(0)

// callPathSide is one side of a goroutine pair: access a in ga, against b
// in gb, whose lock instance is b (noLock: b holds none in gb).
type callPathSide struct{ ea, ga, eb, gb, b uint32 }

func newCallPaths(f *pointsto.Facts, gs *mhp.Goroutines, order *mhp.Order, li *lockInstances, cg map[uint32][]uint32) *callPaths {
	cp := &callPaths{f: f, gs: gs, order: order, li: li, callers: map[uint32][]uint32{}, roots: map[uint32]bool{},
		starts: threadStarts(gs), ordered: map[callOrderKey]bool{}, orderOnly: map[callOrderKey]bool{}, asks: map[callOrderKey][]callChain{},
		chainIDs: map[[2]uint32]uint32{}, chains: map[[3]uint32]uint32{}, asked: map[[2]uint32]bool{}}
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

// prove drops from each pair the goroutine pairs that a proof per call
// path keeps apart, and the pairs left with none.
func (cp *callPaths) prove(locks *condmustnot.Locksets, unique func(pointsto.Ctx) bool, pairs []pair) ([]pair, error) {
	sides := func(p pair, gp [2]uint32) [2]callPathSide {
		return [2]callPathSide{{p.e[0], gp[0], p.e[1], gp[1], cp.li.in(p.e[1], gp[1])}, {p.e[1], gp[1], p.e[0], gp[0], cp.li.in(p.e[0], gp[0])}}
	}
	// Pairs with one shared id have the same accesses and one goroutine
	// pair list: each list is proved once, and replaced, not changed.
	lists := distinctLists(pairs)
	// First pass: every lock query any path may need, so that one run of
	// the lock rules answers them all. A side whose b holds no lock has
	// none to ask. Where covered looks for the queries, it reads a only
	// through its function, as in provedSide: the chains it visits are
	// those of every access of the function with the same goroutines and
	// b.
	for _, p := range lists {
		for _, gp := range p.gp {
			for _, s := range sides(*p, gp) {
				if s.b == noLock {
					continue
				}
				m := cp.f.AccessFunc(s.ea)
				key := callOrderKey{m, s.ga, s.eb, s.gb}
				chains, ok := cp.asks[key]
				if !ok {
					budget := callPathSites
					cp.covered(s, m, callChain{}, &budget, &chains)
					cp.asks[key] = chains
				}
				for _, c := range chains {
					cp.ask(s, c)
				}
			}
		}
	}
	protected, err := locks.ProveInstances(cp.li.insts, unique, cp.queries)
	if err != nil {
		return nil, err
	}
	cp.protected = protected
	left := map[int][][2]uint32{} // by shared id
	for _, p := range lists {
		left[p.shared] = slices.DeleteFunc(slices.Clone(p.gp), func(gp [2]uint32) bool {
			for _, s := range sides(*p, gp) {
				if cp.provedSide(s) {
					return true
				}
			}
			return false
		})
	}
	for i := range pairs {
		pairs[i].gp = left[pairs[i].shared]
	}
	return slices.DeleteFunc(pairs, func(p pair) bool { return len(p.gp) == 0 }), nil
}

// provedSide reports whether the proof keeps s's a apart from b. Where
// no lock query of s can be proved, covered reads a only through its
// function F (where it starts, and where it stops going up): the answer
// is that of every access of F with the same goroutines and b. That is
// so where b holds no lock (no query is made), and where none of the
// queries the first pass asked for s's chains is proved: a query of a's
// instance against b's is asked only by the first pass's walk for (F,
// ga, eb, gb), so locked answers true only at one of those chains.
func (cp *callPaths) provedSide(s callPathSide) bool {
	m := cp.f.AccessFunc(s.ea)
	budget := callPathSites
	key := callOrderKey{m, s.ga, s.eb, s.gb}
	if s.b != noLock && slices.ContainsFunc(cp.asks[key], func(c callChain) bool { return cp.locked(s, c) }) {
		return cp.covered(s, m, callChain{}, &budget, nil)
	}
	ok, seen := cp.orderOnly[key]
	if !seen {
		ok = cp.covered(s, m, callChain{}, &budget, nil)
		cp.orderOnly[key] = ok
	}
	return ok
}

// covered reports whether every run of s's access a inside function m
// (chain: the call sites from m down to a's function) is ordered with b
// or under a lock b holds too. With collect, it only appends the chains
// at which a lock query is to be asked, visits every site without
// stopping early, and reports false.
func (cp *callPaths) covered(s callPathSide, m uint32, chain callChain, budget *int, collect *[]callChain) bool {
	if len(chain.sites) > callPathDepth || cp.roots[m] || cp.starts(s.ga, m) {
		return false
	}
	called, all := false, true
	for _, i := range cp.callers[m] {
		caller := cp.f.Caller(i)
		if !slices.Contains(cp.gs.Of(caller), s.ga) {
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
		up := cp.above(chain, i, collect != nil)
		ok := cp.callOrdered(s, i, call)
		if !ok && collect != nil {
			*collect = append(*collect, up)
		} else if !ok {
			ok = cp.locked(s, up)
		}
		if !ok && !slices.ContainsFunc(chain.sites, func(j uint32) bool { return cp.f.Caller(j) == caller }) && caller != cp.f.AccessFunc(s.ea) {
			ok = cp.covered(s, caller, up, budget, collect)
		}
		if !ok {
			all = false
			if collect == nil {
				return false
			}
		}
	}
	return called && all && collect == nil
}

// above returns chain with call site i added above it, with its number
// where chain has one and the longer chain has been numbered, or number
// says to number it now (the first pass).
func (cp *callPaths) above(chain callChain, i uint32, number bool) callChain {
	up := callChain{append(slices.Clip(chain.sites), i), unnumbered}
	if chain.id == unnumbered {
		return up
	}
	key := [2]uint32{chain.id, i}
	id, ok := cp.chainIDs[key]
	if !ok && number {
		id, ok = uint32(len(cp.chainIDs)+1), true
		cp.chainIDs[key] = id
	}
	if ok {
		up.id = id
	}
	return up
}

// callOrdered is mhp.Order.CallOrdered, kept per call site and side; a
// call from the synchronization primitives or the runtime is never
// ordered here (their events are modeled at their call sites: the call
// above them is).
func (cp *callPaths) callOrdered(s callPathSide, i uint32, call ssa.CallInstruction) bool {
	if fn := call.Parent(); fn.Pkg != nil && modeled(fn.Pkg.Pkg.Path()) {
		return false
	}
	key := callOrderKey{i, s.ga, s.eb, s.gb}
	ok, seen := cp.ordered[key]
	if !seen {
		ok = cp.order.CallOrdered(call, s.ga, cp.f.Access(s.eb), s.gb)
		cp.ordered[key] = ok
	}
	return ok
}

// ask records the lock query of s's access a entered through chain
// against b.
func (cp *callPaths) ask(s callPathSide, chain callChain) {
	key := [3]uint32{s.ea, s.ga, chain.id}
	x, ok := cp.chains[key]
	if !ok {
		x = noLock
		if held, known := cp.li.byG.ViaCalls(s.ea, s.ga, chain.sites); known {
			x = cp.li.add(s.ea, s.ga, held)
		}
		cp.chains[key] = x
	}
	if q := [2]uint32{x, s.b}; x != noLock && !cp.asked[q] {
		cp.asked[q] = true
		cp.queries = append(cp.queries, q)
	}
}

// locked answers the lock query of s's access a entered through chain
// against b: a query the first pass did not ask is not proved.
func (cp *callPaths) locked(s callPathSide, chain callChain) bool {
	if s.b == noLock || chain.id == unnumbered {
		return false
	}
	x, ok := cp.chains[[3]uint32{s.ea, s.ga, chain.id}]
	return ok && x != noLock && cp.protected[[2]uint32{x, s.b}]
}
