package reports

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"golang.org/x/tools/go/ssa"
)

// Report is what chordgo check prints; its JSON form is the schema of
// -json (doc.go).
type Report struct {
	Races  []Race   `json:"races"`
	Errors []string `json:"errors,omitempty"`
	Stats  Stats    `json:"stats"`
}

// A Race is two accesses that may touch one location at the same time.
type Race struct {
	Location Location  `json:"location"`
	Accesses [2]Access `json:"accesses"`
	order    [2]token.Position
}

// Location is the memory both accesses may touch.
type Location struct {
	Kind   string `json:"kind"`             // field, element, map, global, variable, object
	Field  string `json:"field,omitempty"`  // the field, for kind field: "(pkg.T).f"
	Global string `json:"global,omitempty"` // the global, for kind global
	Object string `json:"object,omitempty"` // where the object was allocated: "FILE:line:col"
	Type   string `json:"type,omitempty"`   // the allocated object's type
	Desc   string `json:"desc"`             // all of that in words
}

// An Access is one side of a race.
type Access struct {
	Pos       string    `json:"pos"` // ABSOLUTE-FILE:line:col
	Op        string    `json:"op"`  // read or write
	Atomic    bool      `json:"atomic,omitempty"`
	Func      string    `json:"func"` // the SSA name of the function
	Goroutine Goroutine `json:"goroutine"`
	Roots     []string  `json:"roots"` // entry functions from which the access is reached
	Path      []Frame   `json:"path"`  // from the goroutine's entry to the access
	Locks     []string  `json:"locks"` // locks held at the access
}

// A Goroutine says which goroutine runs an access and how it started.
type Goroutine struct {
	Kind  string   `json:"kind"`            // root, init, or go
	Entry string   `json:"entry"`           // the function it starts in
	Spawn []string `json:"spawn,omitempty"` // go statements from the root down: "FILE:line:col"
}

// A Frame is one step of a call path: a call in Func at Pos, or the access
// itself in the last frame.
type Frame struct {
	Func string `json:"func"`
	Pos  string `json:"pos"`
}

// Stats are the funnel's counts (Naik's Table 2.4) and times.
type Stats struct {
	Pairs   Pairs              `json:"pairs"`
	Seconds map[string]float64 `json:"seconds"`
	Sizes   map[string]int     `json:"sizes"`
	Demand  *Demand            `json:"demand,omitempty"`
}

// Demand is the demand loop's record (Naik's Tables 4.3-4.5): per
// iteration, the size of A, the race pairs and the time; for the last
// Sigma, the allocation sites per k.
type Demand struct {
	Iterations int            `json:"iterations"`
	SitesByK   map[string]int `json:"sitesByK"`
	Contexts   []int          `json:"contexts"`
	Estimates  []string       `json:"estimates"`
	RacePairs  []int          `json:"racePairs"`
	Seconds    []float64      `json:"seconds"`
	Capped     []string       `json:"capped,omitempty"` // sites whose k stayed below what the loop asked, for -max-contexts
}

// DemandStats describes the demand loop's iterations.
func DemandStats(dr *demand.Result) *Demand {
	d := &Demand{Iterations: len(dr.Iterations), SitesByK: map[string]int{}}
	for _, it := range dr.Iterations {
		d.Contexts = append(d.Contexts, it.Contexts)
		d.Estimates = append(d.Estimates, it.Estimate)
		d.RacePairs = append(d.RacePairs, it.RacePairs)
		d.Seconds = append(d.Seconds, it.Seconds)
	}
	for k, n := range dr.Iterations[len(dr.Iterations)-1].SitesByK {
		d.SitesByK[strconv.Itoa(k)] = n
	}
	f := dr.PointsTo.Facts
	for _, h := range dr.Capped {
		d.Capped = append(d.Capped, f.SiteDesc(h))
	}
	return d
}

// Pairs counts access pairs after each stage of the funnel.
type Pairs struct {
	Original int `json:"original"`
	Aliasing int `json:"aliasing"`
	Escaping int `json:"escaping"`
	Parallel int `json:"parallel"`
	Unlocked int `json:"unlocked"`
	Ultimate int `json:"ultimate"`
}

// Build describes the races of res in source terms.
func Build(r *pointsto.Result, res *races.Result) *Report {
	b := &builder{r: r, f: r.Facts, gs: res.Goroutines, res: res, paths: newPaths(r, res.Goroutines)}
	rep := &Report{Races: []Race{}}
	for _, race := range res.Races {
		rep.Races = append(rep.Races, b.race(&race))
	}
	slices.SortStableFunc(rep.Races, func(a, b Race) int {
		return cmp.Or(comparePos(a.order[0], b.order[0]), comparePos(a.order[1], b.order[1]))
	})
	s := res.Stats
	rep.Stats = Stats{
		Pairs: Pairs{Original: s.Original, Aliasing: s.Aliasing, Escaping: s.Escaping,
			Parallel: s.Parallel, Unlocked: s.Unlocked, Ultimate: len(res.Races)},
		Seconds: map[string]float64{},
		Sizes:   map[string]int{"goroutines": len(res.Goroutines.List), "contexts": r.Contexts.Len()},
	}
	for name, d := range s.Times {
		rep.Stats.Seconds[name] = d.Seconds()
	}
	return rep
}

type builder struct {
	r     *pointsto.Result
	f     *pointsto.Facts
	gs    *mhp.Goroutines
	res   *races.Result
	paths *paths
}

func (b *builder) race(race *races.Race) Race {
	out := Race{Location: b.location(race.Locations[0])}
	// One goroutine pair stands for all: the first, in id order.
	pair := race.Pairs[0]
	for k, a := range race.Accesses {
		out.Accesses[k] = b.access(a, pair[k])
	}
	// Writes first, as the race detector prints them.
	out.order = [2]token.Position{b.f.AccessPos(race.Accesses[0].E), b.f.AccessPos(race.Accesses[1].E)}
	if out.Accesses[0].Op == "read" && out.Accesses[1].Op == "write" {
		out.Accesses[0], out.Accesses[1] = out.Accesses[1], out.Accesses[0]
		out.order[0], out.order[1] = out.order[1], out.order[0]
	}
	return out
}

// comparePos orders positions by file, then line and column as numbers.
func comparePos(a, b token.Position) int {
	return cmp.Or(cmp.Compare(a.Filename, b.Filename), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

func (b *builder) position(p token.Position) string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

func (b *builder) location(o pointsto.Ctx) Location {
	f := b.f
	h := b.r.Contexts.Site(o)
	site := f.Site(h)
	root := f.Site(site.Root)
	loc := Location{Object: b.position(f.SitePos(site.Root))}
	if root.Type != nil {
		loc.Type = root.Type.String()
	}
	switch {
	case site.Kind == pointsto.SiteSub && site.Field == pointsto.FieldElem:
		loc.Kind = "element"
		loc.Desc = "element of array allocated at " + loc.Object
	case site.Kind == pointsto.SiteSub && site.Field == pointsto.FieldMap, root.Kind == pointsto.SiteMakeMap:
		loc.Kind = "map"
		loc.Desc = "map allocated at " + loc.Object
	case site.Kind == pointsto.SiteSub:
		loc.Kind = "field"
		loc.Field = f.FieldDesc(site.Field)
		loc.Desc = "field " + loc.Field + " of object allocated at " + loc.Object
		if root.Kind == pointsto.SiteGlobal {
			loc.Global = root.Value.(*ssa.Global).String()
			loc.Desc = "field " + loc.Field + " of global " + loc.Global
		}
	case root.Kind == pointsto.SiteGlobal:
		loc.Kind = "global"
		loc.Global = root.Value.(*ssa.Global).String()
		loc.Object = ""
		loc.Desc = "global " + loc.Global
	default:
		if a, ok := root.Value.(*ssa.Alloc); ok && a.Comment != "" {
			loc.Kind = "variable"
			loc.Desc = "variable " + a.Comment + " allocated at " + loc.Object
		} else {
			loc.Kind = "object"
			loc.Desc = "object of type " + loc.Type + " allocated at " + loc.Object
		}
	}
	return loc
}

func (b *builder) access(a races.Access, g uint32) Access {
	f := b.f
	instr := f.Access(a.E)
	out := Access{
		Pos:    b.position(f.AccessPos(a.E)),
		Op:     "read",
		Atomic: a.Atomic,
		Func:   instr.Parent().String(),
		Locks:  []string{},
	}
	if a.Write {
		out.Op = "write"
	}
	out.Goroutine = b.goroutine(g)
	for _, root := range b.gs.Roots(g) {
		out.Roots = append(out.Roots, f.Func(b.gs.List[root].Func).String())
	}
	for _, fr := range b.paths.to(g, a.E) {
		out.Path = append(out.Path, Frame{Func: fr.fn, Pos: b.position(fr.pos)})
	}
	for _, h := range b.res.Held(a.E, g) {
		out.Locks = append(out.Locks, b.res.Locks.Name(h))
	}
	return out
}

func (b *builder) goroutine(g uint32) Goroutine {
	f := b.f
	gr := &b.gs.List[g]
	switch gr.Kind {
	case mhp.RootGoroutine:
		return Goroutine{Kind: "root", Entry: f.Func(gr.Func).String()}
	case mhp.InitGoroutine:
		return Goroutine{Kind: "init", Entry: f.Func(gr.Func).String()}
	}
	out := Goroutine{Kind: "go"}
	var entries []string
	for t := range b.gs.Tuples("threadEntry") {
		if t[0] == g {
			entries = append(entries, f.Func(t[2]).String())
		}
	}
	slices.Sort(entries)
	out.Entry = strings.Join(slices.Compact(entries), " or ")
	// The spawn chain through first parents, root first.
	for x, seen := g, map[uint32]bool{}; b.gs.List[x].Kind == mhp.GoGoroutine && !seen[x]; {
		seen[x] = true
		out.Spawn = append([]string{b.position(f.CallPos(b.gs.List[x].Site))}, out.Spawn...)
		if len(b.gs.List[x].Parents) == 0 {
			break
		}
		x = b.gs.List[x].Parents[0]
	}
	return out
}
