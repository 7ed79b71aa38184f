package reports

import (
	"cmp"
	"go/token"
	"slices"

	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// node is a function in a context.
type node struct{ c, m uint32 }

func compareNodes(a, b node) int { return cmp.Or(cmp.Compare(a.m, b.m), cmp.Compare(a.c, b.c)) }

// paths finds counterexample call paths: a shortest path in the
// context-sensitive call graph, without go edges, from a goroutine's entry
// to a context of the function of an access. Breadth-first search over
// sorted edges makes the choice among equally short paths deterministic
// (github.com/dominikbraun/graph's ShortestPath breaks ties by map order,
// so reports would change from run to run).
//
// Paths are computed when a race is written and dropped after it; only
// the last few goroutines' search trees are kept, so memory does not grow
// with the number of races or goroutines reported.
type paths struct {
	r        *pointsto.Result
	gs       *mhp.Goroutines
	edges    map[node][]edge
	trees    map[uint32]*tree // by goroutine, at most maxTrees
	treeFIFO []uint32         // the goroutines of trees, oldest first
	computed int              // paths computed so far, for tests of the report's cost
}

// maxTrees bounds the search trees kept: races of one location mostly
// share their goroutines, so a few trees serve most lookups.
const maxTrees = 16

type edge struct {
	site uint32
	to   node
}

// step is how the search first reached a node: from node from through
// call site site; entry nodes have none.
type step struct {
	from  node
	site  uint32
	depth int32
	entry bool
}

// tree is a breadth-first search from one goroutine's entries: how it
// reached each node, and for each function its nearest context (the
// fewest calls, then the lowest context).
type tree struct {
	steps   map[node]step
	nearest map[uint32]node
}

// frame is a call in fn at pos through call site site, or, last in a
// path, the access at pos.
type frame struct {
	fn   *ssa.Function
	pos  token.Position
	site uint32
	call bool
}

func newPaths(r *pointsto.Result, gs *mhp.Goroutines) *paths {
	f := r.Facts
	goSite := map[uint32]bool{}
	for _, t := range f.Tuples("goCall") {
		goSite[t[0]] = true
	}
	p := &paths{r: r, gs: gs, edges: map[node][]edge{}, trees: map[uint32]*tree{}}
	for t := range r.Tuples("callEdge") {
		if goSite[t[1]] {
			continue
		}
		from := node{t[0], f.Caller(t[1])}
		p.edges[from] = append(p.edges[from], edge{t[1], node{t[2], t[3]}})
	}
	for _, es := range p.edges {
		slices.SortFunc(es, func(a, b edge) int { return cmp.Or(cmp.Compare(a.site, b.site), compareNodes(a.to, b.to)) })
	}
	return p
}

// tree searches breadth-first from g's entries.
func (p *paths) tree(g uint32) *tree {
	if t, ok := p.trees[g]; ok {
		return t
	}
	var queue []node
	for t := range p.gs.Tuples("threadEntry") {
		if t[0] == g {
			queue = append(queue, node{t[1], t[2]})
		}
	}
	slices.SortFunc(queue, compareNodes)
	t := &tree{steps: map[node]step{}, nearest: map[uint32]node{}}
	reach := func(n node, s step) {
		t.steps[n] = s
		// Breadth-first order reaches nodes by nondecreasing depth.
		if old, ok := t.nearest[n.m]; !ok || t.steps[old].depth == s.depth && compareNodes(n, old) < 0 {
			t.nearest[n.m] = n
		}
	}
	for _, n := range queue {
		reach(n, step{entry: true})
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range p.edges[n] {
			if _, ok := t.steps[e.to]; !ok {
				reach(e.to, step{from: n, site: e.site, depth: t.steps[n].depth + 1})
				queue = append(queue, e.to)
			}
		}
	}
	if len(p.treeFIFO) == maxTrees {
		delete(p.trees, p.treeFIFO[0])
		p.treeFIFO = p.treeFIFO[1:]
	}
	p.trees[g] = t
	p.treeFIFO = append(p.treeFIFO, g)
	return t
}

// to returns the frames from g's entry to access e: one per call, then the
// access.
func (p *paths) to(g, e uint32) []frame {
	p.computed++
	f := p.r.Facts
	m := f.AccessFunc(e)
	t := p.tree(g)
	var path []frame
	if n, ok := t.nearest[m]; ok {
		for x := n; !t.steps[x].entry; x = t.steps[x].from {
			s := t.steps[x]
			path = append(path, frame{f.Func(s.from.m), f.CallPos(s.site), s.site, true})
		}
	}
	slices.Reverse(path)
	return append(path, frame{fn: f.Func(m), pos: f.AccessPos(e)})
}
