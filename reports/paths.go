package reports

import (
	"go/token"

	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/dominikbraun/graph"
)

// node is a function in a context.
type node struct{ c, m uint32 }

// paths finds counterexample call paths: the shortest path in the
// context-sensitive call graph, without go edges, from a goroutine's entry
// to a context of the function of an access, found in a graph of the
// functions that goroutine runs.
type paths struct {
	r        *pointsto.Result
	gs       *mhp.Goroutines
	edges    map[node][]edge
	graphs   map[uint32]*goroutineGraph
	accessFn map[uint32]uint32 // E -> M
}

type edge struct {
	site uint32
	to   node
}

type goroutineGraph struct {
	g       graph.Graph[node, node]
	entries []node
	byFunc  map[uint32][]node
	site    map[[2]node]uint32
}

type frame struct {
	fn  string
	pos token.Position
}

func newPaths(r *pointsto.Result, gs *mhp.Goroutines) *paths {
	f := r.Facts
	callerOf := make([]uint32, f.Size(pointsto.DomI))
	for _, t := range f.Tuples("callSite") {
		callerOf[t[0]] = t[1]
	}
	goSite := map[uint32]bool{}
	for _, t := range f.Tuples("goCall") {
		goSite[t[0]] = true
	}
	p := &paths{r: r, gs: gs, edges: map[node][]edge{}, graphs: map[uint32]*goroutineGraph{}, accessFn: map[uint32]uint32{}}
	for _, t := range f.Tuples("accessFunc") {
		p.accessFn[t[0]] = t[1]
	}
	for t := range r.Tuples("callEdge") {
		if goSite[t[1]] {
			continue
		}
		from := node{t[0], callerOf[t[1]]}
		p.edges[from] = append(p.edges[from], edge{t[1], node{t[2], t[3]}})
	}
	return p
}

func (p *paths) graphOf(g uint32) *goroutineGraph {
	if gg, ok := p.graphs[g]; ok {
		return gg
	}
	gg := &goroutineGraph{
		g:      graph.New(func(n node) node { return n }, graph.Directed()),
		byFunc: map[uint32][]node{},
		site:   map[[2]node]uint32{},
	}
	in := map[node]bool{}
	for t := range p.gs.Tuples("threadReach") {
		if t[0] == g {
			n := node{t[1], t[2]}
			in[n] = true
			_ = gg.g.AddVertex(n)
			gg.byFunc[n.m] = append(gg.byFunc[n.m], n)
		}
	}
	for t := range p.gs.Tuples("threadEntry") {
		if t[0] == g {
			gg.entries = append(gg.entries, node{t[1], t[2]})
		}
	}
	for from := range in {
		for _, e := range p.edges[from] {
			if in[e.to] {
				if err := gg.g.AddEdge(from, e.to); err == nil {
					gg.site[[2]node{from, e.to}] = e.site
				}
			}
		}
	}
	p.graphs[g] = gg
	return gg
}

// to returns the frames from g's entry to access e: one per call, then the
// access.
func (p *paths) to(g, e uint32) []frame {
	f := p.r.Facts
	m := p.accessFn[e]
	gg := p.graphOf(g)
	// A sink behind every context of m: one search finds the nearest.
	sink := node{pointsto.NoID, m}
	if _, err := gg.g.Vertex(sink); err != nil {
		_ = gg.g.AddVertex(sink)
		for _, n := range gg.byFunc[m] {
			_ = gg.g.AddEdge(n, sink)
		}
	}
	var best []node
	for _, src := range gg.entries {
		path, err := graph.ShortestPath(gg.g, src, sink)
		if err == nil && (best == nil || len(path) < len(best)) {
			best = path[:len(path)-1]
		}
	}
	var out []frame
	for k := 0; k+1 < len(best); k++ {
		i := gg.site[[2]node{best[k], best[k+1]}]
		out = append(out, frame{f.Func(best[k].m).String(), f.CallPos(i)})
	}
	return append(out, frame{f.Func(m).String(), f.AccessPos(e)})
}
