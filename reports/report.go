package reports

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/chordgo/chordgo/condmustnot"
	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"golang.org/x/tools/go/ssa"
)

// Report is what chordgo check prints: the races grouped by location,
// described one at a time as they are written (WriteText, WriteJSON), so
// that memory does not grow with the number of races or their paths.
type Report struct {
	Errors []string
	Stats  Stats
	opts   Options
	note   func(raceID string) string // see Annotate
	b      *builder
	groups []group
	// program names the one program Build's races are of ("" when they
	// are of several analyzed together); see programStats.
	program string
	// funcInfo describes the functions the races name, once Describe
	// dropped b.
	funcInfo map[string]FuncInfo
	// filtered are the ids of the races Stats.Filtered counts.
	filtered FilteredIDs
}

// Options say how much a report shows.
type Options struct {
	// MaxPaths is the number of races per location shown with call
	// paths; the others are listed by their accesses only. 0: all.
	MaxPaths int
	// Timings keeps the stages' times in the JSON report; without them
	// two runs print the same bytes.
	Timings bool
	// Root is the directory SARIF URIs and baseline descriptions name
	// files relative to: the module root.
	Root string
	// Shard marks the report of one shard (chordgo check -shard): its
	// JSON lists the ids of the races filters took out (FilteredIDs),
	// so that Merge counts a race that two shards' programs share once.
	Shard bool
}

// DefaultMaxPaths is chordgo check's Options.MaxPaths: enough pairs with
// paths to show how a location is reached, few enough that a location
// with thousands of pairs stays readable.
const DefaultMaxPaths = 3

// group is a location and its races, in the order they are written.
type group struct {
	loc   Location
	races []entry
}

// entry is a race with what it is sorted by: the positions of its
// accesses, the write first.
type entry struct {
	race  *races.Race
	order [2]token.Position
	swap  bool  // write the second access first
	desc  *Race // the race described, once Describe ran (race is then nil)
}

// A Race is two accesses that may touch one location at the same time.
type Race struct {
	ID       string    `json:"id"` // stable across edits that move lines
	Location Location  `json:"location"`
	Accesses [2]Access `json:"accesses"`
}

// Location is the memory both accesses may touch.
type Location struct {
	ID     string `json:"id"`               // stable across edits that move lines
	Kind   string `json:"kind"`             // field, element, map, global, variable, object
	Field  string `json:"field,omitempty"`  // the field, for kind field: "(pkg.T).f"
	Global string `json:"global,omitempty"` // the global, for kind global
	Object string `json:"object,omitempty"` // where the object was allocated: "FILE:line:col"
	Type   string `json:"type,omitempty"`   // the allocated object's type
	Desc   string `json:"desc"`             // all of that in words
	object token.Position
}

// An Access is one side of a race.
type Access struct {
	Pos       string    `json:"pos"` // ABSOLUTE-FILE:line:col
	Op        string    `json:"op"`  // read or write
	Atomic    bool      `json:"atomic,omitempty"`
	Func      string    `json:"func"` // the SSA name of the function
	Goroutine Goroutine `json:"goroutine"`
	Roots     []string  `json:"roots"` // entry functions from which the access is reached
	Path      []Frame   `json:"path"`  // from the goroutine's entry to the access; empty past Options.MaxPaths
	Locks     []string  `json:"locks"` // locks held at the access
	pos       token.Position
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
	Func  string   `json:"func"`
	Pos   string   `json:"pos"`
	Locks []string `json:"locks,omitempty"` // locks held at the call; the last frame's are the Access's Locks
	pos   token.Position
}

// FuncInfo says where a function named in a race is declared.
type FuncInfo struct {
	Pos string // "FILE:line:col" of its declaration, "-" for a function without one (a wrapper)
	Pkg string // its package's import path; "" for a function without one
}

// Stats are the funnel's counts (Naik's Table 2.4) and times.
type Stats struct {
	Pairs     Pairs              `json:"pairs"`
	Reported  int                `json:"reported"`  // the ultimate pairs less those filtered
	Filtered  Filtered           `json:"filtered"`  // ultimate pairs not reported, by the filter that took them out
	Locations int                `json:"locations"` // the locations of the reported pairs
	Seconds   map[string]float64 `json:"seconds,omitempty"`
	Sizes     map[string]int     `json:"sizes"`
	Demand    *Demand            `json:"demand,omitempty"`
	// Programs are the programs analyzed, by name, each with its share of
	// the counts above (Merge sums them).
	Programs []ProgramStats `json:"programs,omitempty"`
	// FilteredIDs, in a shard's report only, are the ids of the races
	// Filtered counts.
	FilteredIDs *FilteredIDs `json:"filteredIds,omitempty"`
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
	Seconds    []float64      `json:"seconds,omitempty"`
	Capped     []string       `json:"capped,omitempty"` // sites whose k stayed below what the loop asked, for -max-contexts or demand.MaxGrowth
}

// DemandStats describes the demand loop's iterations; f names the capped
// sites (a stopped result has no points-to to take them from).
func DemandStats(dr *demand.Result, f *pointsto.Facts) *Demand {
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
	for _, h := range dr.Capped {
		d.Capped = append(d.Capped, f.SiteDesc(h))
	}
	return d
}

// SetDemand replaces the demand loop's record of a program's report, also
// in its program's statistics if Describe has made them: a report built
// when a run completed takes the record of the loop that ends after it
// (the sites capped since).
func (rep *Report) SetDemand(d *Demand) {
	rep.Stats.Demand = d
	for i := range rep.Stats.Programs {
		rep.Stats.Programs[i].Demand = d
	}
}

// Filtered counts the ultimate pairs that filters took out of a report,
// each under the first filter that took it.
type Filtered struct {
	Suppressed int `json:"suppressed"` // by a //chordgo:ignore comment
	Baseline   int `json:"baseline"`   // their id is in the -baseline file
	Unchanged  int `json:"unchanged"`  // no access on a line -new-from-rev's diff adds or changes
}

// FilteredIDs are the ids of the races Filtered counts, by filter, each
// list sorted.
type FilteredIDs struct {
	Suppressed []string `json:"suppressed,omitempty"`
	Baseline   []string `json:"baseline,omitempty"`
	Unchanged  []string `json:"unchanged,omitempty"`
}

// complete reports whether ids lists every race fl counts: a report
// read from the JSON of an unsharded check has the counts only.
func (ids *FilteredIDs) complete(fl Filtered) bool {
	return len(ids.Suppressed) == fl.Suppressed && len(ids.Baseline) == fl.Baseline && len(ids.Unchanged) == fl.Unchanged
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

// Build groups the races of res by location and sorts them; it describes
// them only when the report is written.
func Build(r *pointsto.Result, res *races.Result, opts Options) *Report {
	b := &builder{r: r, f: r.Facts, gs: res.Goroutines, res: res, paths: newPaths(r, res.Goroutines), ids: newIDs(r.Facts),
		funcs: map[string]*ssa.Function{}}
	rep := &Report{opts: opts, b: b}
	bySite := map[uint32]int{} // abstract location (H) -> index in rep.groups
	byID := map[string]int{}
	for i := range res.Races {
		race := &res.Races[i]
		h := r.Contexts.Site(race.Locations[0])
		k, ok := bySite[h]
		if !ok {
			loc := b.location(h)
			// Sites with one key (ids) are one location.
			if k, ok = byID[loc.ID]; !ok {
				k = len(rep.groups)
				byID[loc.ID] = k
				rep.groups = append(rep.groups, group{loc: loc})
			}
			bySite[h] = k
		}
		rep.groups[k].races = append(rep.groups[k].races, b.entry(race))
	}
	for _, g := range rep.groups {
		slices.SortStableFunc(g.races, compareEntries)
	}
	rep.sortGroups()
	s := res.Stats
	rep.Stats = Stats{
		Pairs: Pairs{Original: s.Original, Aliasing: s.Aliasing, Escaping: s.Escaping,
			Parallel: s.Parallel, Unlocked: s.Unlocked, Ultimate: len(res.Races)},
		Reported:  len(res.Races),
		Locations: len(rep.groups),
		Seconds:   map[string]float64{},
		Sizes:     map[string]int{"goroutines": len(res.Goroutines.List), "contexts": r.Contexts.Len()},
	}
	for name, d := range s.Times {
		rep.Stats.Seconds[name] = d.Seconds()
	}
	if programs := r.Facts.Prog.Programs(); len(programs) == 1 {
		rep.program = r.Facts.Prog.ProgramName(programs[0])
	}
	return rep
}

func compareEntries(a, b entry) int {
	return cmp.Or(comparePos(a.order[0], b.order[0]), comparePos(a.order[1], b.order[1]))
}

// sortGroups orders locations by their first race.
func (rep *Report) sortGroups() {
	slices.SortStableFunc(rep.groups, func(a, b group) int {
		return cmp.Or(compareEntries(a.races[0], b.races[0]), cmp.Compare(a.loc.ID, b.loc.ID))
	})
}

// omit takes the races for which out is true out of the report, and
// returns how many it took.
func (rep *Report) omit(ids *[]string, out func(e *entry) bool) int {
	n := 0
	groups := rep.groups[:0]
	for _, g := range rep.groups {
		kept := g.races[:0]
		for _, e := range g.races {
			if out(&e) {
				n++
				*ids = append(*ids, rep.raceID(&e))
			} else {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			groups = append(groups, group{loc: g.loc, races: kept})
		}
	}
	clear(rep.groups[len(groups):])
	rep.groups = groups
	rep.sortGroups()
	slices.Sort(*ids)
	rep.Stats.Reported -= n
	rep.Stats.Locations = len(groups)
	return n
}

// raceID returns the id of e's race, described or not.
func (rep *Report) raceID(e *entry) string {
	if e.desc != nil {
		return e.desc.ID
	}
	return rep.b.raceID(e.race)
}

type builder struct {
	r     *pointsto.Result
	f     *pointsto.Facts
	gs    *mhp.Goroutines
	res   *races.Result
	paths *paths
	ids   *ids
	funcs map[string]*ssa.Function // the functions named so far, by name (Report.Func)
}

// funcName names fn by its SSA name and remembers it for Report.Func.
func (b *builder) funcName(fn *ssa.Function) string {
	name := fn.String()
	b.funcs[name] = fn
	return name
}

// Func describes a function that a race described so far (by Each or a
// writer) names: in an access, a goroutine, its roots or a call path.
func (rep *Report) Func(name string) (FuncInfo, bool) {
	if rep.b == nil {
		info, ok := rep.funcInfo[name]
		return info, ok
	}
	fn, ok := rep.b.funcs[name]
	if !ok {
		return FuncInfo{}, false
	}
	var pos token.Position
	if fn.Pos().IsValid() {
		pos = fn.Prog.Fset.Position(fn.Pos())
	}
	info := FuncInfo{Pos: rep.b.position(pos)}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fn.Pkg != nil {
		info.Pkg = fn.Pkg.Pkg.Path()
	}
	return info, true
}

// entry orders a race's accesses: writes first, as the race detector
// prints them.
func (b *builder) entry(race *races.Race) entry {
	e := entry{race: race, order: [2]token.Position{b.f.AccessPos(race.Accesses[0].E), b.f.AccessPos(race.Accesses[1].E)}}
	if !race.Accesses[0].Write && race.Accesses[1].Write {
		e.swap = true
		e.order[0], e.order[1] = e.order[1], e.order[0]
	}
	return e
}

// race describes one race of location g, with call paths if withPaths.
func (b *builder) race(g *group, e *entry, withPaths bool) Race {
	out := Race{Location: g.loc}
	// One goroutine pair stands for all: the first, in id order.
	pair := e.race.Pairs[0]
	for k, a := range e.race.Accesses {
		out.Accesses[k] = b.access(a, pair[k], withPaths)
	}
	if e.swap {
		out.Accesses[0], out.Accesses[1] = out.Accesses[1], out.Accesses[0]
	}
	out.ID = b.raceID(e.race)
	return out
}

// raceID names a race by its two accesses: races are distinct pairs of
// accesses.
func (b *builder) raceID(race *races.Race) string {
	keys := make([]string, 2)
	for k, a := range race.Accesses {
		keys[k] = b.ids.access(a.E, accessOp(a))
	}
	slices.Sort(keys)
	return hash(strings.Join(keys, "\x00"))
}

// accessOp is an access's operation as reports name it.
func accessOp(a races.Access) string {
	if a.Write {
		return "write"
	}
	return "read"
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

// location describes abstract location h; its id is its key's (ids).
func (b *builder) location(h uint32) Location {
	f := b.f
	site := f.Site(h)
	root := f.Site(site.Root)
	loc := Location{ID: hash(b.ids.location(h)), object: f.SitePos(site.Root)}
	loc.Object = b.position(loc.object)
	if root.Type != nil {
		loc.Type = root.Type.String()
	}
	switch {
	case site.Kind == pointsto.SiteSub && site.Field == pointsto.FieldElem:
		loc.Kind = "element"
		loc.Desc = "element of array allocated at " + loc.Object
	case site.Kind == pointsto.SiteSub && site.Field == pointsto.FieldMapKey:
		loc.Kind = "map"
		loc.Desc = "keys of map allocated at " + loc.Object
	case site.Kind == pointsto.SiteSub && site.Field == pointsto.FieldMapValue:
		loc.Kind = "map"
		loc.Desc = "values of map allocated at " + loc.Object
	case root.Kind == pointsto.SiteMakeMap:
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
		loc.Object, loc.object = "", token.Position{}
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

func (b *builder) access(a races.Access, g uint32, withPaths bool) Access {
	f := b.f
	instr := f.Access(a.E)
	out := Access{
		pos:    f.AccessPos(a.E),
		Op:     accessOp(a),
		Atomic: a.Atomic,
		Func:   b.funcName(instr.Parent()),
		Locks:  []string{},
	}
	out.Pos = b.position(out.pos)
	out.Goroutine = b.goroutine(g)
	for _, root := range b.gs.Roots(g) {
		out.Roots = append(out.Roots, b.funcName(f.Func(b.gs.List[root].Func)))
	}
	out.Locks = append(out.Locks, b.lockNames(b.res.Held(a.E, g))...)
	out.Path = []Frame{}
	if withPaths {
		for _, fr := range b.paths.to(g, a.E) {
			var locks []string
			if fr.call {
				locks = b.lockNames(b.res.HeldAtCall(fr.site, g))
			}
			out.Path = append(out.Path, Frame{Func: b.funcName(fr.fn), Pos: b.position(fr.pos), Locks: locks, pos: fr.pos})
		}
	}
	return out
}

func (b *builder) lockNames(held []condmustnot.Held) []string {
	var names []string
	for _, h := range held {
		names = append(names, b.res.Locks.Name(h))
	}
	return names
}

func (b *builder) goroutine(g uint32) Goroutine {
	f := b.f
	gr := &b.gs.List[g]
	switch gr.Kind {
	case mhp.RootGoroutine:
		return Goroutine{Kind: "root", Entry: b.funcName(f.Func(gr.Func))}
	case mhp.InitGoroutine:
		return Goroutine{Kind: "init", Entry: b.funcName(f.Func(gr.Func))}
	}
	out := Goroutine{Kind: "go"}
	var entries []string
	for t := range b.gs.Tuples("threadEntry") {
		if t[0] == g {
			entries = append(entries, b.funcName(f.Func(t[2])))
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
