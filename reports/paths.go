package reports

import (
	"cmp"
	"go/token"
	"slices"

	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
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
type paths struct {
	r     *pointsto.Result
	gs    *mhp.Goroutines
	edges map[node][]edge
	trees map[uint32]map[node]step // by goroutine: how the search reached each node
}

type edge struct {
	site uint32
	to   node
}

// step is how the search first reached a node: from node from through
// call site site; entry nodes have none.
type step struct {
	from  node
	site  uint32
	entry bool
}

type frame struct {
	fn  string
	pos token.Position
}

func newPaths(r *pointsto.Result, gs *mhp.Goroutines) *paths {
	f := r.Facts
	goSite := map[uint32]bool{}
	for _, t := range f.Tuples("goCall") {
		goSite[t[0]] = true
	}
	p := &paths{r: r, gs: gs, edges: map[node][]edge{}, trees: map[uint32]map[node]step{}}
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

// tree searches breadth-first from g's entries, once per goroutine.
func (p *paths) tree(g uint32) map[node]step {
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
	tree := map[node]step{}
	for _, n := range queue {
		tree[n] = step{entry: true}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range p.edges[n] {
			if _, ok := tree[e.to]; !ok {
				tree[e.to] = step{from: n, site: e.site}
				queue = append(queue, e.to)
			}
		}
	}
	p.trees[g] = tree
	return tree
}

// to returns the frames from g's entry to access e: one per call, then the
// access.
func (p *paths) to(g, e uint32) []frame {
	f := p.r.Facts
	m := f.AccessFunc(e)
	tree := p.tree(g)
	// The nearest context of m: the fewest calls, then the lowest context.
	var best []frame
	var bestNode node
	for n := range tree {
		if n.m != m {
			continue
		}
		var path []frame
		for x := n; !tree[x].entry; x = tree[x].from {
			s := tree[x]
			path = append(path, frame{f.Func(s.from.m).String(), f.CallPos(s.site)})
		}
		if best == nil || len(path) < len(best) || len(path) == len(best) && compareNodes(n, bestNode) < 0 {
			best, bestNode = path, n
		}
	}
	slices.Reverse(best)
	return append(best, frame{f.Func(m).String(), f.AccessPos(e)})
}
