package mhp

import (
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

// countRuns counts runs over the context-sensitive call graph: a root or
// init runs once in the empty context; a call site adds the runs of its
// caller's context, twice over if it sits in a loop. A function of
// exclusive, no two of whose call sites both run in one execution
// (exclusivelyCalled), runs in a context at most as often as the one of
// its sites that adds the most: the others add nothing in that execution.
func countRuns(r *pointsto.Result, exclusive map[uint32]bool) *counts {
	f := r.Facts
	cn := &counts{n: map[[2]uint32]uint8{}, f: f, loops: map[*ssa.BasicBlock]bool{}}
	in := map[[2]uint32][]runEdge{}
	out := map[[2]uint32][][2]uint32{}
	for t := range r.Tuples("callEdge") {
		c, i, c2, m := t[0], t[1], t[2], t[3]
		from, to := [2]uint32{c, f.Caller(i)}, [2]uint32{c2, m}
		mult := uint8(1)
		if cn.inLoop(f.Call(i).Block()) {
			mult = 2
		}
		in[to] = append(in[to], runEdge{from, i, mult})
		out[from] = append(out[from], to)
	}
	base := map[[2]uint32]uint8{}
	var work [][2]uint32
	for _, t := range f.Tuples("entry") {
		node := [2]uint32{r.EntryContext(t[0]), t[0]}
		base[node]++
		work = append(work, node)
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
			for _, e := range in[node] {
				bySite[e.site] += int(cn.n[e.from]) * int(e.mult)
				most = max(most, bySite[e.site])
			}
			sum += most
		} else {
			for _, e := range in[node] {
				sum += int(cn.n[e.from]) * int(e.mult)
			}
		}
		v := uint8(min(sum, 2))
		if v != cn.n[node] {
			cn.n[node] = v
			work = append(work, out[node]...)
		}
	}
	cn.caps = functionRuns(r, in, exclusive)
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
func functionRuns(r *pointsto.Result, in map[[2]uint32][]runEdge, exclusive map[uint32]bool) map[uint32]uint8 {
	f := r.Facts
	sites := map[uint32]map[uint32]uint8{} // function -> its call sites -> mult
	callees := map[uint32][]uint32{}       // function -> the functions it calls
	for to, es := range in {
		for _, e := range es {
			if sites[to[1]] == nil {
				sites[to[1]] = map[uint32]uint8{}
			}
			if _, ok := sites[to[1]][e.site]; !ok {
				sites[to[1]][e.site] = e.mult
				callees[e.from[1]] = append(callees[e.from[1]], to[1])
			}
		}
	}
	runs := map[uint32]uint8{}
	base := map[uint32]int{}
	var work []uint32
	for _, t := range f.Tuples("entry") {
		base[t[0]]++
		work = append(work, t[0])
	}
	// Termination: as countRuns'.
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		sum, most := base[m], 0
		for i, mult := range sites[m] {
			n := int(runs[f.Caller(i)]) * int(mult)
			sum += n
			most = max(most, n)
		}
		if exclusive[m] {
			sum = base[m] + most
		}
		if v := uint8(min(sum, 2)); v != runs[m] {
			runs[m] = v
			work = append(work, callees[m]...)
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
