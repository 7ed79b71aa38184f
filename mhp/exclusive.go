package mhp

import (
	"math/bits"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// Exclusive branches: two calls that one activation of a function never
// both makes, in a function that runs at most once, as the subcommands of a
// command-line tool,
//
//	func run(args []string) int {          // called once, by main
//		for _, c := range commands() {
//			if c.name == args[0] {
//				return c.run(args[1:])  // runCheck, runFacts, ...
//			}
//		}
//		...
//	}
//
// where runCheck, runConfirm and runRacefree all call analyze, a method of
// an object that one constructor makes for all three, which starts a
// goroutine: analyze runs at most once in an execution, so the go
// statement runs once, its goroutine is single, and what analyze
// allocates exists once. exclusivelyCalled finds such functions: no two
// of their call sites run in one execution; countRuns and functionRuns
// then count their runs by the busiest site instead of the sum.
//
// The graph: a node is a goroutine, a context and a function the goroutine
// may run in that context (threadReach); an edge is a call site of the
// function, to each callee and context in the same goroutine (callEdge),
// or a go site, to the entries of the goroutines it starts there. Contexts
// keep apart what a function merges across its callers: sync.Once's
// doSlow calls the f of its own Once (its receiver's context), not every
// f of the program. The roots are the root and init goroutines'
// functions. Node d dominates node x when every path from a root to x
// passes d.
//
// Two nodes x and y are exclusive (never both run in one execution) when
// d, their nearest common dominator, is neither; d's function F runs at
// most once in an execution (counts.total, over all goroutines and
// contexts) and has no recover block; mask(x) is the set of d's out-edges
// from which x is reachable without passing d (likewise mask(y)), and
// every edge of mask(x) is exclusive with every edge of mask(y): two edges
// of one call site that runs at most once per call of F (not in a loop) to
// different functions, or edges of two sites neither of which can reach
// the other in F's control flow graph. A deferred call runs at F's exit,
// not at its site: its edges are exclusive with none.
//
// Why this holds: an activation is reached from a root by a chain of calls
// and go statements; that chain is a path of the graph (a superset of the
// edges an execution takes), so it passes F's one activation, and leaves
// it for the last time by an edge e from which the rest of the chain
// avoids d: e is in mask(x). If x and y both ran, F's one activation took
// an edge of mask(x) and one of mask(y). One call runs one function, a
// site that runs at most once per call runs once, and of two sites that
// cannot reach each other a run of F passes at most one; with no recover
// block, a panic ends the activation (deferred calls aside, which no edge
// counts on). So no run of F takes both. Only the nearest common dominator
// can prove this: from a dominator above it, x and y are reached through
// that node, by the same edges.

const (
	branchRoot = 0          // the node before every root and init
	unreached  = ^uint32(0) // idom of a node no root reaches
)

// branchGraph is the graph of (goroutine, context, function) nodes with
// its dominator tree, and the masks of the dominators asked about.
type branchGraph struct {
	f       *pointsto.Facts
	gs      *Goroutines
	count   *counts             // the run counts that masks were made with
	callees map[uint32][]uint32 // by call site: the functions it may call
	kind    map[uint32]callKind // the go and defer sites

	keys [][]uint64 // by goroutine: the (function, context) pairs it may run (threadReach), as function<<32 | context, sorted
	base []uint32   // by goroutine: the node of keys[g][0]
	fn   []uint32   // by node: its function (M)
	// The nodes node n has an edge to are succ[start[n]:start[n+1]], each
	// once. Dominators read no more; the edges themselves, with their
	// call sites, are made again from calls and byStart for the nodes
	// whose masks are asked for (outEdges): one goroutine's nodes repeat
	// another's calls, so the edges take tens of times the memory of
	// the calls (bbolt's tests: 297 goroutines, about 80 M edges).
	start   []uint32
	succ    []uint32
	calls   map[uint64][]branchCall // by function<<32 | context: its call edges (callEdge)
	byStart map[[2]uint32][]uint32  // by (go site, context): the goroutines it starts
	idom    []uint32                // by node: its immediate dominator, unreached if no root reaches it
	depth   []uint32                // by node: its depth in the dominator tree
	// pre numbers the nodes in a preorder of the dominator tree; size is
	// the size of each node's subtree, so that d dominates x when pre[x]
	// is in [pre[d], pre[d]+size[d]).
	pre, size []uint32
	masks     map[uint32]*branchMasks
}

// A branchEdge is a call site (I) of a node's function and the node it
// leads to.
type branchEdge struct{ site, to uint32 }

// A branchCall is a call edge of a function in a context: the call site,
// and the context and function it calls.
type branchCall struct{ site, c2, m2 uint32 }

// nodesOf returns the nodes of function m in goroutine g, one per context.
func (bg *branchGraph) nodesOf(g, m uint32) (first, end uint32) {
	keys := bg.keys[g]
	lo, _ := slices.BinarySearch(keys, uint64(m)<<32)
	hi, _ := slices.BinarySearch(keys, uint64(m+1)<<32)
	return bg.base[g] + uint32(lo), bg.base[g] + uint32(hi)
}

func (bg *branchGraph) nodeOf(g uint32, c pointsto.Ctx, m uint32) (uint32, bool) {
	k, ok := slices.BinarySearch(bg.keys[g], uint64(m)<<32|uint64(c))
	return bg.base[g] + uint32(k), ok
}

// newBranchGraph builds the graph of the goroutines gs and its dominator
// tree.
func newBranchGraph(r *pointsto.Result, gs *Goroutines) *branchGraph {
	f := r.Facts
	bg := &branchGraph{f: f, gs: gs, callees: map[uint32][]uint32{}, kind: map[uint32]callKind{},
		keys: make([][]uint64, len(gs.List)), base: make([]uint32, len(gs.List)), fn: []uint32{0}, masks: map[uint32]*branchMasks{},
		calls: map[uint64][]branchCall{}, byStart: map[[2]uint32][]uint32{}}
	for t := range r.Tuples("callEdge") {
		c, i, c2, m2 := t[0], t[1], t[2], t[3]
		k := uint64(f.Caller(i))<<32 | uint64(c)
		bg.calls[k] = append(bg.calls[k], branchCall{i, c2, m2})
		if !slices.Contains(bg.callees[i], m2) {
			bg.callees[i] = append(bg.callees[i], m2)
		}
	}
	for _, t := range f.Tuples("goCall") {
		bg.kind[t[0]] = goCallKind
	}
	for _, t := range f.Tuples("deferCall") {
		bg.kind[t[0]] = deferCallKind
	}
	for t := range gs.Tuples("threadReach") {
		bg.keys[t[0]] = append(bg.keys[t[0]], uint64(t[2])<<32|uint64(t[1]))
	}
	for g, keys := range bg.keys {
		slices.Sort(keys)
		bg.base[g] = uint32(len(bg.fn))
		for _, k := range keys {
			bg.fn = append(bg.fn, uint32(k>>32))
		}
	}
	for g, gr := range gs.List {
		if gr.Kind == GoGoroutine {
			k := [2]uint32{gr.Site, gr.Ctx}
			bg.byStart[k] = append(bg.byStart[k], uint32(g))
		}
	}
	bg.start = make([]uint32, len(bg.fn)+1)
	for g, gr := range gs.List {
		if gr.Kind != GoGoroutine {
			first, end := bg.nodesOf(uint32(g), gr.Func)
			for to := first; to < end; to++ {
				bg.succ = append(bg.succ, to)
			}
		}
	}
	last := make([]uint32, len(bg.fn)) // by node: 1 + the last node with an edge to it
	var out []branchEdge
	n := uint32(1)
	for g, keys := range bg.keys {
		for _, k := range keys {
			bg.start[n] = uint32(len(bg.succ))
			n++
			out = bg.appendOut(out[:0], uint32(g), k)
			for _, e := range out {
				if last[e.to] != n {
					last[e.to] = n
					bg.succ = append(bg.succ, e.to)
				}
			}
		}
	}
	bg.start[n] = uint32(len(bg.succ))
	bg.succ = slices.Clone(bg.succ) // no room to grow: it stays to the end
	bg.dominators()
	return bg
}

// appendOut appends the out-edges of goroutine g's node of key (function
// and context, as in keys): a call edge in the same goroutine, a go
// statement's to the goroutines it starts there whose parent g is.
func (bg *branchGraph) appendOut(out []branchEdge, g uint32, key uint64) []branchEdge {
	c := uint32(key)
	for _, e := range bg.calls[key] {
		if bg.kind[e.site] != goCallKind {
			if to, ok := bg.nodeOf(g, e.c2, e.m2); ok {
				out = append(out, branchEdge{e.site, to})
			}
			continue
		}
		for _, g2 := range bg.byStart[[2]uint32{e.site, c}] {
			if _, ok := slices.BinarySearch(bg.gs.List[g2].Parents, g); !ok {
				continue
			}
			if to, ok := bg.nodeOf(g2, e.c2, e.m2); ok {
				out = append(out, branchEdge{e.site, to})
			}
		}
	}
	return out
}

// outEdges returns the out-edges of node v, not the root.
func (bg *branchGraph) outEdges(v uint32) []branchEdge {
	// v's goroutine: the last whose nodes start at v or before (one
	// without nodes starts where the next does).
	g, _ := slices.BinarySearch(bg.base, v+1)
	g--
	return bg.appendOut(nil, uint32(g), bg.keys[g][v-bg.base[g]])
}

// dominators computes idom and depth by the iterative algorithm of Cooper,
// Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001): nodes
// in reverse postorder, each one's idom the intersection of its processed
// predecessors'. Termination: it is their round-robin dataflow over the
// dominator sets, which only shrink.
func (bg *branchGraph) dominators() {
	n := len(bg.fn)
	post := make([]uint32, n) // postorder number, by node
	var order []uint32        // the nodes a root reaches, in postorder
	visited := make([]bool, n)
	type frame struct{ node, next uint32 }
	stack := []frame{{branchRoot, bg.start[branchRoot]}}
	visited[branchRoot] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < bg.start[top.node+1] {
			to := bg.succ[top.next]
			top.next++
			if !visited[to] {
				visited[to] = true
				stack = append(stack, frame{to, bg.start[to]})
			}
			continue
		}
		post[top.node] = uint32(len(order))
		order = append(order, top.node)
		stack = stack[:len(stack)-1]
	}
	predStart := make([]uint32, n+1)
	for _, to := range bg.succ {
		predStart[to+1]++
	}
	for v := range n {
		predStart[v+1] += predStart[v]
	}
	preds := make([]uint32, len(bg.succ))
	fill := slices.Clone(predStart[:n])
	for v := range n {
		for _, to := range bg.succ[bg.start[v]:bg.start[v+1]] {
			preds[fill[to]] = uint32(v)
			fill[to]++
		}
	}
	idom := make([]uint32, n)
	for v := range idom {
		idom[v] = unreached
	}
	idom[branchRoot] = branchRoot
	intersect := func(a, b uint32) uint32 {
		for a != b {
			for post[a] < post[b] {
				a = idom[a]
			}
			for post[b] < post[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 2; k >= 0; k-- { // reverse postorder; the root is last
			v := order[k]
			d := unreached
			for _, p := range preds[predStart[v]:predStart[v+1]] {
				switch {
				case idom[p] == unreached:
				case d == unreached:
					d = p
				default:
					d = intersect(p, d)
				}
			}
			if idom[v] != d {
				idom[v] = d
				changed = true
			}
		}
	}
	bg.idom = idom
	bg.depth = make([]uint32, n)
	childStart := make([]uint32, n+1) // the children of v are children[childStart[v]:childStart[v+1]]
	for k := len(order) - 2; k >= 0; k-- {
		v := order[k]
		bg.depth[v] = bg.depth[idom[v]] + 1
		childStart[idom[v]+1]++
	}
	for v := range n {
		childStart[v+1] += childStart[v]
	}
	children := make([]uint32, len(order))
	fill = slices.Clone(childStart[:n])
	for _, v := range order[:len(order)-1] {
		children[fill[idom[v]]] = v
		fill[idom[v]]++
	}
	bg.pre, bg.size = make([]uint32, n), make([]uint32, n)
	next := uint32(0)
	stack = append(stack[:0], frame{branchRoot, childStart[branchRoot]})
	bg.pre[branchRoot] = next
	next++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < childStart[top.node+1] {
			c := children[top.next]
			top.next++
			bg.pre[c] = next
			next++
			stack = append(stack, frame{c, childStart[c]})
			continue
		}
		bg.size[top.node] = next - bg.pre[top.node]
		stack = stack[:len(stack)-1]
	}
}

// dominates reports whether d dominates x (x reached from a root).
func (bg *branchGraph) dominates(d, x uint32) bool {
	return bg.pre[x]-bg.pre[d] < bg.size[d]
}

// commonDominator returns the nearest common dominator of two nodes a root
// reaches.
func (bg *branchGraph) commonDominator(x, y uint32) uint32 {
	for x != y {
		if bg.depth[x] >= bg.depth[y] {
			x = bg.idom[x]
		} else {
			y = bg.idom[y]
		}
	}
	return x
}

// exclusiveNodes reports whether the functions m1, run by goroutine g1,
// and m2, run by g2, never both run in one execution (see the top of this
// file): every two of their nodes, one per context, are exclusive.
func (bg *branchGraph) exclusiveNodes(g1, m1, g2, m2 uint32) bool {
	x0, x1 := bg.nodesOf(g1, m1)
	y0, y1 := bg.nodesOf(g2, m2)
	if x0 == x1 || y0 == y1 {
		return false
	}
	for x := x0; x < x1; x++ {
		for y := y0; y < y1; y++ {
			if !bg.exclusive(x, y) {
				return false
			}
		}
	}
	return true
}

// exclusive reports whether nodes x and y never both run in one execution.
func (bg *branchGraph) exclusive(x, y uint32) bool {
	if bg.idom[x] == unreached || bg.idom[y] == unreached {
		return false
	}
	d := bg.commonDominator(x, y)
	if d == x || d == y || d == branchRoot {
		return false
	}
	ms := bg.branchMasks(d)
	return ms != nil && ms.disjointRuns(ms.of(bg, x), ms.of(bg, y))
}

// branchMasks holds, for a dominator node d, mask of every node and which
// of d's out-edges are exclusive, as words bits per node and per edge.
type branchMasks struct {
	words     int
	first     uint32   // pre of d
	reach     []uint64 // by node d dominates, from first on in preorder: the out-edges of d that reach it without passing d
	exclusive []uint64 // by out-edge: the out-edges exclusive with it
}

func (ms *branchMasks) of(bg *branchGraph, n uint32) []uint64 {
	k := int(bg.pre[n] - ms.first)
	return ms.reach[k*ms.words : (k+1)*ms.words]
}

// disjointRuns reports whether every edge of mx is exclusive with every
// edge of my, both not empty.
func (ms *branchMasks) disjointRuns(mx, my []uint64) bool {
	if !slices.ContainsFunc(mx, nonzero) || !slices.ContainsFunc(my, nonzero) {
		return false
	}
	for w, word := range mx {
		for ; word != 0; word &= word - 1 {
			j := w*64 + bits.TrailingZeros64(word)
			ex := ms.exclusive[j*ms.words : (j+1)*ms.words]
			for k, y := range my {
				if y&^ex[k] != 0 {
					return false
				}
			}
		}
	}
	return true
}

func nonzero(w uint64) bool { return w != 0 }

// branchMasks returns the masks of node d, or nil if d's function may run
// more than once or has a recover block.
func (bg *branchGraph) branchMasks(d uint32) *branchMasks {
	if ms, ok := bg.masks[d]; ok {
		return ms
	}
	fn := bg.f.Func(bg.fn[d])
	if fn == nil || fn.Recover != nil || bg.count.total(bg.fn[d]) > 1 {
		bg.masks[d] = nil
		return nil
	}
	out := bg.outEdges(d)
	words := (len(out) + 63) / 64
	ms := &branchMasks{words: words, first: bg.pre[d], reach: make([]uint64, int(bg.size[d])*words), exclusive: make([]uint64, len(out)*words)}
	byTarget := map[uint32][]int{} // node -> the out-edges to it
	var targets []uint32
	for j, e := range out {
		if e.to == d {
			continue // recursion: F would not run once
		}
		if byTarget[e.to] == nil {
			targets = append(targets, e.to)
		}
		byTarget[e.to] = append(byTarget[e.to], j)
	}
	// One search per target, over the nodes it reaches without passing d.
	// A path from d's edge to a node d dominates that avoids d stays among
	// the nodes d dominates (a node on it that d did not dominate would
	// give a path from a root that avoids d), so the searches stay there.
	// Termination: each search visits a node once (seen).
	seen := make([]uint32, bg.size[d]) // by node in preorder from d: the last search (1-based) that visited it
	for s, t := range targets {
		stamp := uint32(s + 1)
		mark := func(v uint32) {
			k := bg.pre[v] - ms.first
			seen[k] = stamp
			for _, j := range byTarget[t] {
				ms.reach[int(k)*words+j/64] |= 1 << (j % 64)
			}
		}
		if !bg.dominates(d, t) {
			continue // reached from elsewhere too: no node below it is d's alone
		}
		mark(t)
		stack := []uint32{t}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, to := range bg.succ[bg.start[v]:bg.start[v+1]] {
				if to != d && bg.dominates(d, to) && seen[bg.pre[to]-ms.first] != stamp {
					mark(to)
					stack = append(stack, to)
				}
			}
		}
	}
	reaches := blockReach(fn)
	for j1, e1 := range out {
		for j2 := j1 + 1; j2 < len(out); j2++ {
			e2 := out[j2]
			if bg.exclusiveSites(fn, reaches, e1.site, e2.site) && (e1.site != e2.site || bg.fn[e1.to] != bg.fn[e2.to]) {
				ms.exclusive[j1*words+j2/64] |= 1 << (j2 % 64)
				ms.exclusive[j2*words+j1/64] |= 1 << (j1 % 64)
			}
		}
	}
	bg.masks[d] = ms
	return ms
}

// exclusiveSites reports whether one call of fn makes at most one of the
// calls at sites i1 and i2 (the same site: at most once), neither
// deferred.
func (bg *branchGraph) exclusiveSites(fn *ssa.Function, reaches map[*ssa.BasicBlock]*bitset.BitSet, i1, i2 uint32) bool {
	if bg.kind[i1] == deferCallKind || bg.kind[i2] == deferCallKind {
		return false
	}
	c1, c2 := bg.f.Call(i1), bg.f.Call(i2)
	if c1 == nil || c2 == nil || c1.Parent() != fn || c2.Parent() != fn {
		return false
	}
	b1, b2 := c1.Block(), c2.Block()
	if i1 == i2 {
		return !bg.count.inLoop(b1)
	}
	return b1 != b2 && !reaches[b1].Test(uint(b2.Index)) && !reaches[b2].Test(uint(b1.Index))
}

// blockReach returns, by block of fn, the blocks a path of one edge or
// more leads to.
func blockReach(fn *ssa.Function) map[*ssa.BasicBlock]*bitset.BitSet {
	out := map[*ssa.BasicBlock]*bitset.BitSet{}
	for _, b := range fn.Blocks {
		s := bitset.New(uint(len(fn.Blocks)))
		for _, x := range reachedFrom(b) {
			s.Set(uint(x.Index))
		}
		out[b] = s
	}
	return out
}

// exclusivelyCalled returns the functions, not in have, at most one of
// whose call sites runs in an execution: every two sites are in one
// function that runs at most once and one call of it makes at most one of
// them (exclusiveSites), or in two functions whose nodes are exclusive.
// countRuns counts such a function's runs by its busiest site.
func (bg *branchGraph) exclusivelyCalled(gs *Goroutines, have map[uint32]bool) map[uint32]bool {
	callers := map[uint32][]uint32{} // M -> the sites that may call it
	for i, ms := range bg.callees {
		for _, m := range ms {
			if !have[m] {
				callers[m] = append(callers[m], i)
			}
		}
	}
	reaches := map[*ssa.Function]map[*ssa.BasicBlock]*bitset.BitSet{}
	sitesExclusive := func(i1, i2 uint32) bool {
		m1, m2 := bg.f.Caller(i1), bg.f.Caller(i2)
		if m1 != m2 {
			for _, g1 := range gs.Of(m1) {
				for _, g2 := range gs.Of(m2) {
					if !bg.exclusiveNodes(g1, m1, g2, m2) {
						return false
					}
				}
			}
			return true
		}
		fn := bg.f.Func(m1)
		if fn == nil || fn.Recover != nil || bg.count.total(m1) > 1 {
			return false
		}
		if reaches[fn] == nil {
			reaches[fn] = blockReach(fn)
		}
		return bg.exclusiveSites(fn, reaches[fn], i1, i2)
	}
	out := map[uint32]bool{}
	for m, sites := range callers {
		if len(sites) < 2 {
			continue
		}
		all := true
		for k, i1 := range sites {
			for _, i2 := range sites[k+1:] {
				if all = sitesExclusive(i1, i2); !all {
					break
				}
			}
			if !all {
				break
			}
		}
		if all {
			out[m] = true
		}
	}
	return out
}

// recount takes new run counts, lower than the last: dominators that ran
// more than once may run once now.
func (bg *branchGraph) recount(cn *counts) {
	bg.count = cn
	for d, ms := range bg.masks {
		if ms == nil {
			delete(bg.masks, d)
		}
	}
}
