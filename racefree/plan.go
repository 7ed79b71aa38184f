package racefree

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/internal/overlay"
	"github.com/chordgo/chordgo/pointsto"
)

// A Function is a function declaration of the packages analyzed, with
// whether it is marked //go:norace and, if not, why.
type Function struct {
	Name   string         // "F", "(*T).m"
	Pos    token.Position // of the func keyword, as the compiler sees it (after //line directives)
	File   string         // the file on disk that holds it
	Offset int            // byte offset of the func keyword in File
	Marked bool
	Reason Reason // why it is not marked
	Checks int    // loads and stores in its body (closures aside): the checks marking removes each time it runs
	// RaceFree counts the loads and stores of its body that are accesses
	// in no race.
	RaceFree int
	// Redundant counts the other loads and stores of its body that span
	// redundancy covers (span.go): in a marked function, the checks
	// marking removes besides the race-free ones.
	Redundant int
	// Package is the name in the package clause of its file.
	Package string
	// For a function not marked: its race-free loads and stores that go
	// through accessors (Accessors, with the Edits of its file that make
	// them do), and those that do not, by why (Skipped).
	Accessors int
	Edits     []overlay.Insertion
	Skipped   map[Skip]int
	// SpanAccessors counts the accessors whose load or store is not proven
	// race-free, only redundant.
	SpanAccessors int
	// Covers lists the loads and stores, of a marked function or through
	// accessors, that are not proven race-free and go because span
	// redundancy covers them, each with the checked accesses that cover
	// it: where the race detector reports a race the access would have
	// been reported in.
	Covers []Cover
}

// A Cover is a load or store whose check span redundancy removes, with
// the positions (as the compiler sees them) of the checked accesses of
// the same location in its function, one of which covers it on each path.
type Cover struct {
	At token.Position
	By []token.Position
}

// Reason says why a function is not marked //go:norace.
type Reason string

// The reasons, most decisive first: a function gets the first that holds.
const (
	Generic       Reason = "generic: one compiled body serves instances chordgo analyzes apart"
	NotReached    Reason = "not reached from a root (or a closure or test variant of it is not): unknown is not safe"
	Racy          Reason = "an access of it (or of a closure in it) is in a reported race"
	Unmodeled     Reason = "a load or store chordgo has no access for (not a stack variable)"
	Inlinable     Reason = "calls a function the compiler may inline whose loads and stores are not all proven race-free"
	NoChecks      Reason = "no load or store of its own: marking would only drop its frame from race reports"
	NotAtLineHead Reason = "its func keyword does not start its line, where //go:norace must go"
	Unreplaceable Reason = "its file is in GOROOT or the module cache, which go build -overlay cannot replace"
	HasNorace     Reason = "already //go:norace"
)

// A Planner gathers what the results of a module's programs say, one
// program at a time (Add), so that no program's result is kept while the
// others are analyzed, and then plans the overlay (Plan).
type Planner struct {
	facts     *pointsto.Facts
	fset      *token.FileSet
	byProgram map[int]*programSets // added, not yet joined into the sets below
	programSets
	access map[ssa.Instruction]bool
	safe   map[*ssa.Function]bool      // inlineSafe, memoized
	spans  map[*ssa.Function]spanCover // spanRedundant, memoized
}

// programSets is what Plan reads of one program's result, or of the
// programs joined.
type programSets struct {
	reached map[*ssa.Function]bool
	racy    map[*ssa.Function]bool // functions with an access in a race
	racyE   map[ssa.Instruction]bool
	callees map[ssa.CallInstruction][]*ssa.Function // of dynamic calls, from the final call graph
}

func newProgramSets() programSets {
	return programSets{reached: map[*ssa.Function]bool{}, racy: map[*ssa.Function]bool{},
		racyE: map[ssa.Instruction]bool{}, callees: map[ssa.CallInstruction][]*ssa.Function{}}
}

// NewPlanner returns a Planner that has seen no program.
func NewPlanner() *Planner {
	return &Planner{byProgram: map[int]*programSets{}, programSets: newProgramSets(), access: map[ssa.Instruction]bool{},
		safe: map[*ssa.Function]bool{}, spans: map[*ssa.Function]spanCover{}}
}

// Add gathers what a program's result says: the functions it reaches,
// those with an access in a race, the accesses, and the callees of
// dynamic calls. A later result of the same program (dr.Program: chordgo
// check adds each completed run of the demand loop, as a budget may end
// the loop after any) replaces the earlier one, so the plan is the last
// one's. The programs share the facts' ids (pointsto's
// Analyzer.Program), so their sets join (join).
func (p *Planner) Add(dr *demand.Result) {
	f := dr.PointsTo.Facts
	if p.facts == nil {
		p.facts, p.fset = f.Whole(), f.Prog.Fset
		for e := range uint32(f.Size(pointsto.DomE)) {
			p.access[f.Access(e)] = true
		}
	}
	s := newProgramSets()
	for t := range dr.PointsTo.Tuples("reach") {
		s.reached[f.Func(t[1])] = true
	}
	for _, r := range dr.Races.Races {
		for _, a := range r.Accesses {
			s.racy[f.Func(f.AccessFunc(a.E))] = true
			s.racyE[f.Access(a.E)] = true
		}
	}
	for i, ms := range dr.PointsTo.CallGraph() {
		for _, m := range ms {
			s.callees[f.Call(i)] = append(s.callees[f.Call(i)], f.Func(m))
		}
	}
	p.byProgram[dr.Program] = &s
}

// join joins the sets of the programs added into p's, in program order.
func (p *Planner) join() {
	for _, n := range slices.Sorted(maps.Keys(p.byProgram)) {
		s := p.byProgram[n]
		maps.Copy(p.reached, s.reached)
		maps.Copy(p.racy, s.racy)
		maps.Copy(p.racyE, s.racyE)
		for call, fns := range s.callees {
			for _, fn := range fns {
				if !slices.Contains(p.callees[call], fn) {
					p.callees[call] = append(p.callees[call], fn)
				}
			}
		}
	}
	clear(p.byProgram)
}

// Plan decides which function declarations of the packages analyzed are
// marked //go:norace: those whose every load and store, in each variant
// of the function the program has (a package and its test variant) and in
// each closure declared in it, chordgo proved race-free (it is in no race
// of the programs added, which report every race with an access in these
// packages), and whose calls go only to functions that are safe to inline
// into it (inlineSafe). replaceable says which files an overlay may
// replace. Functions are returned in file and offset order.
func (p *Planner) Plan(replaceable func(file string) bool) []Function {
	p.join()
	var out []Function
	for _, d := range p.decls() {
		out = append(out, p.decide(d, replaceable))
	}
	slices.SortFunc(out, func(a, b Function) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Offset, b.Offset))
	})
	return out
}

// A decl is a function declaration with the go/ssa functions made from
// it: one per variant of its package (a package and its test variant are
// two), and the closures declared in it.
type decl struct {
	syntax *ast.FuncDecl
	pkg    string          // the name in its file's package clause
	top    []*ssa.Function // the declaration's own functions, one per variant
	funcs  []*ssa.Function // top and the closures nested in them
}

// decls gathers the function declarations of the packages named
// (Initial: their files, also the test files), each with the functions
// the program has for it (those reached, and those their code refers to),
// in file order. A package and its test variant are parsed apart: one
// declaration is at two token.Pos, and is found by its file offset.
func (p *Planner) decls() []*decl {
	byFile := map[token.Position]*decl{}
	byPos := map[token.Pos]*decl{}
	for _, pkg := range p.facts.Prog.Packages {
		if !pkg.Initial {
			continue
		}
		for _, file := range pkg.Files {
			for _, d := range file.Decls {
				syntax, ok := d.(*ast.FuncDecl)
				if !ok || syntax.Body == nil {
					continue
				}
				key := p.fset.PositionFor(syntax.Pos(), false)
				if byFile[key] == nil {
					byFile[key] = &decl{syntax: syntax, pkg: file.Name.Name}
				}
				byPos[syntax.Pos()] = byFile[key]
			}
		}
	}
	for m := range uint32(p.facts.Size(pointsto.DomM)) {
		fn := p.facts.Func(m)
		top := fn
		for top.Parent() != nil {
			top = top.Parent()
		}
		syntax, ok := top.Syntax().(*ast.FuncDecl)
		if !ok || top.Synthetic != "" {
			continue
		}
		d := byPos[syntax.Pos()]
		if d == nil {
			continue
		}
		if fn == top {
			d.top = append(d.top, fn)
		}
		d.funcs = append(d.funcs, fn)
	}
	out := slices.Collect(maps.Values(byFile))
	slices.SortFunc(out, func(a, b *decl) int {
		pa, pb := p.fset.PositionFor(a.syntax.Pos(), false), p.fset.PositionFor(b.syntax.Pos(), false)
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	return out
}

func (p *Planner) decide(d *decl, replaceable func(string) bool) Function {
	raw := p.fset.PositionFor(d.syntax.Pos(), false)
	fn := Function{
		Pos:     p.fset.PositionFor(d.syntax.Pos(), true),
		File:    raw.Filename,
		Offset:  raw.Offset,
		Package: d.pkg,
	}
	fn.Name = d.syntax.Name.Name
	if r := d.syntax.Recv; r != nil && len(r.List) > 0 {
		fn.Name = "(" + types.ExprString(r.List[0].Type) + ")." + fn.Name
	}
	if len(d.top) > 0 {
		for _, b := range d.top[0].Blocks {
			for _, instr := range b.Instrs {
				if isLoadOrStore(instr) {
					fn.Checks++
					if p.raceFree(instr) {
						fn.RaceFree++
					} else if p.covered(instr) {
						fn.Redundant++
					}
				}
			}
		}
	}
	fn.Reason = p.reason(d, replaceable)
	fn.Marked = fn.Reason == ""
	if fn.Marked && fn.Checks == 0 {
		fn.Marked, fn.Reason = false, NoChecks
	}
	if fn.Marked { // the body's checks go, not its closures'
		for _, f := range d.top {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					p.addCover(&fn, instr)
				}
			}
		}
	}
	switch fn.Reason {
	case Racy, Inlinable, Unmodeled:
		if replaceable(fn.File) {
			p.accessors(d, &fn)
		}
	}
	return fn
}

func (p *Planner) reason(d *decl, replaceable func(string) bool) Reason {
	switch {
	case d.syntax.Type.TypeParams != nil || recvTypeParams(d.syntax):
		return Generic
	case hasNorace(d.syntax):
		return HasNorace
	case !slices.ContainsFunc(d.top, func(fn *ssa.Function) bool { return p.reached[fn] }):
		return NotReached
	}
	for _, fn := range d.funcs {
		if !p.reached[fn] && hasLoadOrStore(fn) {
			return NotReached
		}
	}
	for _, fn := range d.funcs {
		if p.racyUncovered(fn) {
			return Racy
		}
	}
	for _, fn := range d.funcs {
		if p.reached[fn] && !p.modeled(fn) {
			return Unmodeled
		}
	}
	for _, fn := range d.funcs {
		if p.reached[fn] && !p.calleesSafe(fn) {
			return Inlinable
		}
	}
	pos := p.fset.PositionFor(d.syntax.Pos(), false)
	switch {
	case pos.Column != 1:
		return NotAtLineHead
	case !replaceable(pos.Filename):
		return Unreplaceable
	}
	return ""
}

// recvTypeParams says whether decl is a method of a generic type.
func recvTypeParams(decl *ast.FuncDecl) bool {
	if decl.Recv == nil || len(decl.Recv.List) == 0 {
		return false
	}
	t := decl.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

func hasNorace(decl *ast.FuncDecl) bool {
	if decl.Doc == nil {
		return false
	}
	return slices.ContainsFunc(decl.Doc.List, func(c *ast.Comment) bool { return c.Text == "//go:norace" })
}

func isLoadOrStore(instr ssa.Instruction) bool { return pointsto.LoadStoreAddr(instr) != nil }

func hasLoadOrStore(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		if slices.ContainsFunc(b.Instrs, isLoadOrStore) {
			return true
		}
	}
	return false
}

// modeled says whether every load and store of fn that can run is an
// access chordgo analyzed, or touches a variable of fn's own frame that
// nothing else can reach (go/ssa keeps it off the heap: not captured, its
// address not taken beyond loads and stores), which the race detector may
// check but no other goroutine can touch, or is covered by span
// redundancy.
func (p *Planner) modeled(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		if !p.facts.Live(b) {
			continue
		}
		for _, instr := range b.Instrs {
			if !isLoadOrStore(instr) || p.access[instr] || p.covered(instr) {
				continue
			}
			if a, ok := pointsto.LoadStoreAddr(instr).(*ssa.Alloc); ok && !a.Heap {
				continue
			}
			return false
		}
	}
	return true
}

// raceFree says whether instr is an access chordgo analyzed that is in
// no race.
func (p *Planner) raceFree(instr ssa.Instruction) bool { return p.access[instr] && !p.racyE[instr] }

// proven says whether chordgo proved instr race-free: an access in no
// race of code it reached.
func (p *Planner) proven(instr ssa.Instruction) bool {
	return p.reached[instr.Parent()] && p.raceFree(instr)
}

// covered says whether span redundancy removes instr's check.
func (p *Planner) covered(instr ssa.Instruction) bool {
	fn := instr.Parent()
	c, ok := p.spans[fn]
	if !ok {
		c = spanRedundant(fn)
		p.spans[fn] = c
	}
	_, ok = c[instr]
	return ok
}

// racyUncovered says whether an access of fn in a race keeps its check:
// span redundancy does not cover it.
func (p *Planner) racyUncovered(fn *ssa.Function) bool {
	if !p.racy[fn] {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if p.racyE[instr] && !p.covered(instr) {
				return true
			}
		}
	}
	return false
}

// addCover adds instr to f's Covers if its check goes only because span
// redundancy covers it.
func (p *Planner) addCover(f *Function, instr ssa.Instruction) {
	if !isLoadOrStore(instr) || p.proven(instr) || !p.covered(instr) {
		return
	}
	c := Cover{At: p.fset.PositionFor(instr.Pos(), true)}
	for _, by := range p.spans[instr.Parent()][instr] {
		c.By = append(c.By, p.fset.PositionFor(by.Pos(), true))
	}
	f.Covers = append(f.Covers, c)
}

// calleesSafe says whether every function a call of fn may reach (a
// static callee, or what the call graph says a dynamic call calls: the
// compiler inlines those it can devirtualize) is inlineSafe. Go
// statements are left out: their function runs in its own goroutine,
// never inlined.
func (p *Planner) calleesSafe(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		if !p.facts.Live(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, ok := instr.(*ssa.Go); ok {
				continue
			}
			if _, ok := call.Common().Value.(*ssa.Builtin); ok {
				continue // append, copy and the like: checked in the runtime, not inlined
			}
			callees := p.callees[call]
			if g := call.Common().StaticCallee(); g != nil {
				callees = []*ssa.Function{g}
			} else if len(callees) == 0 {
				return false
			}
			for _, g := range callees {
				if !p.inlineSafe(g) {
					return false
				}
			}
		}
	}
	return true
}

// noRaceFuncPkgs are the packages the compiler never instruments a
// function of (cmd/internal/objabi: noRaceFuncPkgs); the race detector
// sees their synchronization through annotations, which a caller's
// //go:norace leaves in place (inlined or not, as chordgo assumes of
// sync's internals).
var noRaceFuncPkgs = map[string]bool{"sync": true, "sync/atomic": true, "internal/sync": true, "internal/runtime/atomic": true}

// inlineSafe says whether the compiler inlining g into a //go:norace
// function (so that g's loads and stores lose their checks there) loses
// no race: g has no body (assembly: never inlined; not the runtime's, which
// have none in SSA but may in source), is in a package whose
// functions are never instrumented, or every load and store of g is
// proven race-free (g is reached and in the packages named, chordgo
// reports no race on any of its accesses) and so is everything g calls,
// which the compiler may inline into g. A function of another package
// with a load or store is not safe: chordgo reports only races with an
// access in the packages named, so one between two accesses elsewhere is
// unknown. Mid-stack inlining makes this transitive; a recursive cycle
// is judged by its members' own accesses (the memo's optimistic entry).
func (p *Planner) inlineSafe(g *ssa.Function) bool {
	if ok, seen := p.safe[g]; seen {
		return ok
	}
	p.safe[g] = true
	ok := p.inlineSafeUncached(g)
	p.safe[g] = ok
	return ok
}

func (p *Planner) inlineSafeUncached(g *ssa.Function) bool {
	if len(g.Blocks) == 0 && !pointsto.IsRuntime(g) {
		return true
	}
	pkg := g.Pkg
	if pkg == nil && g.Origin() != nil {
		pkg = g.Origin().Pkg
	}
	if pkg != nil && noRaceFuncPkgs[pkg.Pkg.Path()] {
		return true
	}
	if m, ok := p.facts.FuncID(g); !ok || !p.facts.Analyzed(m) {
		return false // the runtime, or not in the program chordgo analyzed
	}
	inScope := g.Pkg != nil && p.facts.Prog.PackageOf(g.Pkg.Pkg) != nil && p.facts.Prog.PackageOf(g.Pkg.Pkg).Initial
	if inScope {
		if !p.reached[g] && hasLoadOrStore(g) || p.racyUncovered(g) || !p.modeled(g) {
			return false
		}
	} else if hasLoadOrStore(g) {
		return false
	}
	return p.calleesSafe(g)
}

// String describes f in a line.
func (f Function) String() string {
	covered := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf(", %d only covered by span redundancy", n)
	}
	if f.Marked {
		return fmt.Sprintf("%s: %s: //go:norace (%d loads and stores%s)", f.Pos, f.Name, f.Checks, covered(f.Redundant))
	}
	s := fmt.Sprintf("%s: %s: not marked: %s", f.Pos, f.Name, f.Reason)
	if f.Accessors > 0 {
		s += fmt.Sprintf("; %d loads and stores through accessors%s", f.Accessors, covered(f.SpanAccessors))
	}
	return s
}
