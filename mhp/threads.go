package mhp

import (
	_ "embed"
	"go/types"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

//go:embed mhp.dl
var rulesSource string

var parseRules = datalog.Embedded("mhp.dl", rulesSource)

// GoroutineKind says how a goroutine starts.
type GoroutineKind uint8

const (
	RootGoroutine GoroutineKind = iota // a test, benchmark, example, TestMain or main.main
	InitGoroutine                      // a package initializer: runs before every root of its programs
	GoGoroutine                        // a go statement (or a callback the runtime calls later)
)

// A Goroutine is an abstract goroutine: a root, an init, or a go site in
// the context of the function that executes it.
type Goroutine struct {
	Kind     GoroutineKind
	Root     int          // index in Program.Roots (RootGoroutine)
	Func     uint32       // the root or init function (RootGoroutine, InitGoroutine)
	Site     uint32       // the go site (GoGoroutine)
	Entries  []uint32     // the functions the go site may call (GoGoroutine)
	Ctx      pointsto.Ctx // the context the go site runs in (GoGoroutine)
	Programs []int        // the programs (Program.Roots[].Program) it may run in
	Parents  []uint32     // the goroutines that may execute its go statement
	// Single: at most one instance runs in an execution of the program.
	Single bool
	// Parallel: a test or subtest that may call t.Parallel, so it may run
	// at the same time as the other parallel tests (or subtests).
	Parallel bool
}

// Goroutines holds the abstract goroutines of a program and what they run.
type Goroutines struct {
	List     []Goroutine
	funcs    [][]uint32 // by M: the goroutines that may run it, sorted
	desc     []*bitset.BitSet
	db       *datalog.Database
	count    *counts
	branches *branchGraph // exclusive.go
	facts    *pointsto.Facts
}

// Of returns the goroutines that may run function m.
func (gs *Goroutines) Of(m uint32) []uint32 { return gs.funcs[m] }

// Descends reports whether g2 is g or started (transitively) by g.
func (gs *Goroutines) Descends(g, g2 uint32) bool { return gs.desc[g].Test(uint(g2)) }

// SameProgram reports whether two goroutines may run in one process.
func (gs *Goroutines) SameProgram(g1, g2 uint32) bool {
	for _, p := range gs.List[g1].Programs {
		if slices.Contains(gs.List[g2].Programs, p) {
			return true
		}
	}
	return false
}

// Tuples iterates over a relation of mhp.dl (threadReach, spawn, cand, ...).
func (gs *Goroutines) Tuples(rel string) func(func([]uint32) bool) { return gs.db.Tuples(rel) }

// FindGoroutines numbers the goroutines of r's program and runs mhp.dl.
func FindGoroutines(r *pointsto.Result) (*Goroutines, error) {
	f := r.Facts
	prog, err := parseRules()
	if err != nil {
		return nil, err
	}
	gs := &Goroutines{funcs: make([][]uint32, f.Size(pointsto.DomM)), facts: f}
	var entries, spawns []uint32
	byFunc := map[uint32]uint32{} // init function -> goroutine
	for ri, root := range f.Prog.Roots {
		for _, init := range root.Inits {
			m, ok := f.FuncID(init)
			if !ok {
				continue
			}
			g, ok := byFunc[m]
			if !ok {
				g = uint32(len(gs.List))
				byFunc[m] = g
				gs.List = append(gs.List, Goroutine{Kind: InitGoroutine, Func: m})
				entries = append(entries, g, pointsto.Epsilon, m)
			}
			if !slices.Contains(gs.List[g].Programs, root.Program) {
				gs.List[g].Programs = append(gs.List[g].Programs, root.Program)
			}
		}
		if m, ok := f.FuncID(root.Func); ok {
			g := uint32(len(gs.List))
			gs.List = append(gs.List, Goroutine{Kind: RootGoroutine, Root: ri, Func: m, Programs: []int{root.Program}})
			entries = append(entries, g, r.EntryContext(m), m)
		}
	}
	goSite := goSites(f)
	dead := deadGoSites(r, goSite)
	byGo := map[[2]uint32]uint32{} // (go site, context) -> goroutine
	for t := range r.Tuples("callEdge") {
		c, i, c2, m := t[0], t[1], t[2], t[3]
		if !goSite.Test(uint(i)) || dead[[2]uint32{i, c}] {
			continue
		}
		key := [2]uint32{i, c}
		g, ok := byGo[key]
		if !ok {
			g = uint32(len(gs.List))
			byGo[key] = g
			gs.List = append(gs.List, Goroutine{Kind: GoGoroutine, Site: i, Ctx: c})
			spawns = append(spawns, g, c, i)
		}
		entries = append(entries, g, c2, m)
		if gr := &gs.List[g]; !slices.Contains(gr.Entries, m) {
			gr.Entries = append(gr.Entries, m)
		}
	}
	db, err := r.Solve(prog, map[string][]uint32{
		"threadEntry": entries, "spawnSite": spawns,
		"recvKind":    {pointsto.ChanRecv},
		"releaseKind": {pointsto.ChanSend, pointsto.ChanClose},
		"sendKind":    {pointsto.ChanSend},
		"waitKind":    {pointsto.SyncWaitGroupWait},
		"doneKind":    {pointsto.SyncWaitGroupDone},
		"onceKind":    {pointsto.SyncOnceDo},
		"mutexMethod": mutexMethods(f),
		"madeChan":    madeChanSites(f),
		"unsafePtr":   unsafePointers(f),
	})
	if err != nil {
		return nil, err
	}
	// Read tuple by tuple from here on (Tuples): its indexes would live as
	// long as the goroutines.
	db.Release()
	gs.db = db
	for t := range db.Tuples("threadFunc") {
		gs.funcs[t[1]] = append(gs.funcs[t[1]], t[0])
	}
	for _, l := range gs.funcs {
		slices.Sort(l)
	}
	n := uint(len(gs.List))
	gs.desc = make([]*bitset.BitSet, n)
	for g := range gs.desc {
		gs.desc[g] = bitset.New(n).Set(uint(g))
	}
	for t := range db.Tuples("spawn") {
		gs.List[t[1]].Parents = append(gs.List[t[1]].Parents, t[0])
		gs.desc[t[0]].Set(uint(t[1]))
	}
	// Transitive closure. Termination: the sets only grow, inside the
	// goroutines, so at most |goroutines|² rounds change one.
	for changed := true; changed; {
		changed = false
		for g := range gs.desc {
			before := gs.desc[g].Count()
			for g2, ok := gs.desc[g].NextSet(0); ok; g2, ok = gs.desc[g].NextSet(g2 + 1) {
				gs.desc[g].InPlaceUnion(gs.desc[g2])
			}
			changed = changed || gs.desc[g].Count() != before
		}
	}
	// A goroutine runs in the programs of the goroutines that start it.
	for g := range gs.List {
		if gs.List[g].Kind != GoGoroutine {
			for g2, ok := gs.desc[g].NextSet(0); ok; g2, ok = gs.desc[g].NextSet(g2 + 1) {
				for _, p := range gs.List[g].Programs {
					if !slices.Contains(gs.List[g2].Programs, p) {
						gs.List[g2].Programs = append(gs.List[g2].Programs, p)
					}
				}
			}
		}
	}
	for m := range f.Size(pointsto.DomM) {
		if fn := f.Func(uint32(m)); fn != nil && fn.String() == "(*testing.T).Parallel" {
			for _, g := range gs.funcs[m] {
				gs.List[g].Parallel = true
			}
		}
	}
	for g := range gs.List {
		slices.Sort(gs.List[g].Parents)
	}
	// The first counts and the branch graph read the points-to, the facts
	// and the goroutines, and not each other: they are made side by side
	// (every field of the goroutines they read is set above).
	counted := make(chan *counts, 1)
	go func() { counted <- countRuns(r, nil) }()
	gs.branches = newBranchGraph(r, gs)
	gs.count = <-counted
	gs.branches.count = gs.count
	// Termination: the set only grows, within the functions. Counts only
	// fall as it grows (a maximum for a sum), so what a round proved with
	// the counts before it still holds.
	exclusive := map[uint32]bool{}
	for {
		more := gs.branches.exclusivelyCalled(gs, exclusive)
		if len(more) == 0 {
			break
		}
		for m := range more {
			exclusive[m] = true
		}
		gs.count = countRuns(r, exclusive)
		gs.branches.recount(gs.count)
	}
	for g := range gs.List {
		gr := &gs.List[g]
		slices.Sort(gr.Programs)
		switch gr.Kind {
		case RootGoroutine, InitGoroutine:
			gr.Single = true
		case GoGoroutine:
			gr.Single = gs.count.of(gr.Ctx, f.Caller(gr.Site)) <= 1 && !gs.count.inLoop(f.Call(gr.Site).Block())
		}
	}
	return gs, nil
}

// mutexMethods returns (m, z) for the Lock (z = pointsto.LockLock) and
// Unlock (pointsto.LockUnlock) methods of sync.Mutex and of sync.RWMutex's
// write lock.
func mutexMethods(f *pointsto.Facts) []uint32 {
	var out []uint32
	for m := range f.Size(pointsto.DomM) {
		fn := f.Func(uint32(m))
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" {
			continue
		}
		switch fn.String() {
		case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock":
			out = append(out, uint32(m), pointsto.LockLock)
		case "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock":
			out = append(out, uint32(m), pointsto.LockUnlock)
		}
	}
	return out
}

// madeChanSites returns the allocation sites that are a make(chan T).
func madeChanSites(f *pointsto.Facts) []uint32 {
	var out []uint32
	for _, t := range f.Tuples("alloc") {
		if _, ok := f.Value(t[0]).(*ssa.MakeChan); ok {
			out = append(out, t[1])
		}
	}
	return out
}

// unsafePointers returns the values that convert a pointer to an
// unsafe.Pointer.
func unsafePointers(f *pointsto.Facts) []uint32 {
	var out []uint32
	for _, t := range f.Tuples("move") {
		if c, ok := f.Value(t[0]).(*ssa.Convert); ok && isUnsafePointer(c.Type()) && !isUnsafePointer(c.X.Type()) {
			out = append(out, t[0])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// goSites returns the go call sites (goCall).
func goSites(f *pointsto.Facts) *bitset.BitSet {
	s := bitset.New(uint(f.Size(pointsto.DomI)))
	for _, t := range f.Tuples("goCall") {
		s.Set(uint(t[0]))
	}
	return s
}

// oneStarted reports whether at most one of goroutines g1 and g2 runs in
// an execution: one go site, not in a loop, in a function that runs at
// most once in an execution (over all its contexts), starts both, so it
// runs once and starts one goroutine.
func (gs *Goroutines) oneStarted(g1, g2 uint32) bool {
	a, b := &gs.List[g1], &gs.List[g2]
	return a.Kind == GoGoroutine && b.Kind == GoGoroutine && a.Site == b.Site &&
		gs.count.total(gs.facts.Caller(a.Site)) <= 1 && !gs.count.inLoop(gs.facts.Call(a.Site).Block())
}

// sequential reports whether two goroutines never run at the same time
// because the test runner or the runtime runs them one after the other:
// inits run before every root and before the goroutines roots start;
// tests run one after another, except tests that call t.Parallel, which
// may run together, and so do the subtests t.Run starts inside them
// (subtests.go).
func (gs *Goroutines) sequential(g1, g2 uint32) bool {
	k1, k2 := gs.List[g1].Kind, gs.List[g2].Kind
	if k1 != GoGoroutine && k2 != GoGoroutine {
		return g1 != g2 && !(gs.List[g1].Parallel && gs.List[g2].Parallel)
	}
	// An init against a goroutine that no init starts.
	for _, p := range [2][2]uint32{{g1, g2}, {g2, g1}} {
		if gs.List[p[0]].Kind == InitGoroutine && !gs.fromInit(p[1]) {
			return true
		}
	}
	return gs.inSequentialTests(g1, g2)
}

func (gs *Goroutines) fromInit(g uint32) bool {
	for i, gr := range gs.List {
		if gr.Kind == InitGoroutine && gs.desc[i].Test(uint(g)) {
			return true
		}
	}
	return false
}

// Roots returns the root goroutines (roots and inits) that g descends
// from, sorted.
func (gs *Goroutines) Roots(g uint32) []uint32 {
	var out []uint32
	for r, gr := range gs.List {
		if gr.Kind != GoGoroutine && gs.desc[r].Test(uint(g)) {
			out = append(out, uint32(r))
		}
	}
	return out
}
