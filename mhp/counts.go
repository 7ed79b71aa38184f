package mhp

import (
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// counts bounds how many times each function runs in each context in one
// execution of the program: 0, 1, or 2 for "more than once". A goroutine
// whose go statement runs at most once is single; an object whose
// allocation runs at most once is unique.
type counts struct {
	n      map[[2]uint32]uint8 // (context, function) -> runs
	totals map[uint32]uint8    // function -> runs over all contexts (total)
	caps   map[uint32]uint8    // function -> runs over all contexts, without contexts (functionRuns)
	f      *pointsto.Facts
	loops  map[*ssa.BasicBlock]bool
}

func (cn *counts) of(c pointsto.Ctx, m uint32) uint8 { return cn.n[[2]uint32{c, m}] }

// A runGraph is the call graph runs are counted over, with contexts and
// without: built once, counted again each time exclusivelyCalled finds
// more functions.
type runGraph struct {
	r       *pointsto.Result
	in      map[[2]uint32][]runEdge   // (context, function) -> the edges into it
	out     map[[2]uint32][][2]uint32 // (context, function) -> its callees' nodes
	entries [][2]uint32               // the roots' and inits' nodes, once per entry
	loops   map[*ssa.BasicBlock]bool  // Facts.Repeats, as asked (counts.inLoop)
	// Without contexts (functionRuns): each function's call sites, once
	// each, and the functions each function calls.
	sites   map[uint32][]siteMult
	callees map[uint32][]uint32
}

// A siteMult is a call site and its multiplier (2 if in a loop).
type siteMult struct {
	site uint32
	mult uint8
}

func newRunGraph(r *pointsto.Result) *runGraph {
	f := r.Facts
	g := &runGraph{r: r, in: map[[2]uint32][]runEdge{}, out: map[[2]uint32][][2]uint32{}, loops: map[*ssa.BasicBlock]bool{},
		sites: map[uint32][]siteMult{}, callees: map[uint32][]uint32{}}
	loops := &counts{f: f, loops: g.loops}
	seen := map[[2]uint32]bool{} // (function, call site) in sites
	for t := range r.Tuples("callEdge") {
		c, i, c2, m := t[0], t[1], t[2], t[3]
		from, to := [2]uint32{c, f.Caller(i)}, [2]uint32{c2, m}
		mult := uint8(1)
		if loops.inLoop(f.Call(i).Block()) {
			mult = 2
		}
		g.in[to] = append(g.in[to], runEdge{from, i, mult})
		g.out[from] = append(g.out[from], to)
		if !seen[[2]uint32{m, i}] {
			seen[[2]uint32{m, i}] = true
			g.sites[m] = append(g.sites[m], siteMult{i, mult})
			g.callees[from[1]] = append(g.callees[from[1]], m)
		}
	}
	for _, t := range f.Tuples("entry") {
		g.entries = append(g.entries, [2]uint32{r.EntryContext(t[0]), t[0]})
	}
	return g
}

// count counts runs over the context-sensitive call graph: a root or
// init runs once in the empty context; a call site adds the runs of its
// caller's context, twice over if it sits in a loop. A function of
// exclusive, no two of whose call sites both run in one execution
// (exclusivelyCalled), runs in a context at most as often as the one of
// its sites that adds the most: the others add nothing in that execution.
func (g *runGraph) count(exclusive map[uint32]bool) *counts {
	cn := &counts{n: map[[2]uint32]uint8{}, f: g.r.Facts, loops: g.loops}
	base := map[[2]uint32]uint8{}
	work := slices.Clone(g.entries)
	for _, node := range g.entries {
		base[node]++
	}
	// Termination: a count only rises (its inputs do; sums and maxima are
	// monotone) and is capped at 2, so a node changes, and requeues its
	// successors, at most twice.
	for len(work) > 0 {
		node := work[len(work)-1]
		work = work[:len(work)-1]
		sum := int(base[node])
		if exclusive[node[1]] {
			bySite := map[uint32]int{}
			most := 0
			for _, e := range g.in[node] {
				bySite[e.site] += int(cn.n[e.from]) * int(e.mult)
				most = max(most, bySite[e.site])
			}
			sum += most
		} else {
			for _, e := range g.in[node] {
				sum += int(cn.n[e.from]) * int(e.mult)
			}
		}
		v := uint8(min(sum, 2))
		if v != cn.n[node] {
			cn.n[node] = v
			work = append(work, g.out[node]...)
		}
	}
	cn.caps = g.functionRuns(exclusive)
	return cn
}

// A runEdge is a call site's edge from a caller's context.
type runEdge struct {
	from [2]uint32 // (context, function)
	site uint32
	mult uint8 // 2 if the site is in a loop
}

// functionRuns bounds the runs of each function over all its contexts
// by the same count over the call graph without contexts: a root or init
// runs once, a call site adds the runs of its caller (twice over in a
// loop), and for a function of exclusive only its busiest site counts.
// This can be less than the sum over contexts: a function that runs once
// calls another in two contexts at two exclusive sites.
func (g *runGraph) functionRuns(exclusive map[uint32]bool) map[uint32]uint8 {
	f := g.r.Facts
	runs := map[uint32]uint8{}
	base := map[uint32]int{}
	var work []uint32
	for _, node := range g.entries {
		base[node[1]]++
		work = append(work, node[1])
	}
	// Termination: as count's.
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		sum, most := base[m], 0
		for _, s := range g.sites[m] {
			n := int(runs[f.Caller(s.site)]) * int(s.mult)
			sum += n
			most = max(most, n)
		}
		if exclusive[m] {
			sum = base[m] + most
		}
		if v := uint8(min(sum, 2)); v != runs[m] {
			runs[m] = v
			work = append(work, g.callees[m]...)
		}
	}
	return runs
}

// inLoop reports whether an instruction in b may run more than once per
// call (pointsto's Facts.Repeats: a cycle of live blocks, not counting a
// loop whose body runs at most once).
func (cn *counts) inLoop(b *ssa.BasicBlock) bool {
	if b == nil {
		return true
	}
	v, ok := cn.loops[b]
	if !ok {
		v = cn.f.Repeats(b)
		cn.loops[b] = v
	}
	return v
}

// total bounds how many times function m runs in one execution, over all
// its contexts: 0, 1, or 2 for "more than once".
func (cn *counts) total(m uint32) uint8 {
	if cn.totals == nil {
		cn.totals = map[uint32]uint8{}
		for k, v := range cn.n {
			cn.totals[k[1]] = min(cn.totals[k[1]]+v, 2)
		}
		for m, c := range cn.totals {
			cn.totals[m] = min(c, cn.caps[m])
		}
	}
	return cn.totals[m]
}
