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
	f      *pointsto.Facts
	loops  map[*ssa.BasicBlock]bool
}

func (cn *counts) of(c pointsto.Ctx, m uint32) uint8 { return cn.n[[2]uint32{c, m}] }

// countRuns counts runs over the context-sensitive call graph: a root or
// init runs once in the empty context; a call site adds the runs of its
// caller's context, twice over if it sits in a loop.
func countRuns(r *pointsto.Result) *counts {
	f := r.Facts
	cn := &counts{n: map[[2]uint32]uint8{}, f: f, loops: map[*ssa.BasicBlock]bool{}}
	type edge struct {
		from [2]uint32
		mult uint8
	}
	in := map[[2]uint32][]edge{}
	out := map[[2]uint32][][2]uint32{}
	for t := range r.Tuples("callEdge") {
		c, i, c2, m := t[0], t[1], t[2], t[3]
		from, to := [2]uint32{c, f.Caller(i)}, [2]uint32{c2, m}
		mult := uint8(1)
		if cn.inLoop(f.Call(i).Block()) {
			mult = 2
		}
		in[to] = append(in[to], edge{from, mult})
		out[from] = append(out[from], to)
	}
	base := map[[2]uint32]uint8{}
	var work [][2]uint32
	for _, t := range f.Tuples("entry") {
		node := [2]uint32{r.EntryContext(t[0]), t[0]}
		base[node]++
		work = append(work, node)
	}
	// Termination: a count only rises (its inputs do) and is capped at 2,
	// so a node changes, and requeues its successors, at most twice.
	for len(work) > 0 {
		node := work[len(work)-1]
		work = work[:len(work)-1]
		sum := int(base[node])
		for _, e := range in[node] {
			sum += int(cn.n[e.from]) * int(e.mult)
		}
		v := uint8(min(sum, 2))
		if v != cn.n[node] {
			cn.n[node] = v
			work = append(work, out[node]...)
		}
	}
	return cn
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
	}
	return cn.totals[m]
}
