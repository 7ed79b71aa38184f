package pointsto

import (
	"bufio"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chordgo/chordgo/datalog"
	"golang.org/x/tools/go/ssa"
)

const testdataDir = "testdata/pointsto"

// repoRoot is the module root, where the testdata patterns are resolved.
func repoRoot(t testing.TB) string {
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

type fixture struct {
	t     testing.TB
	prog  *Program
	facts *Facts
	s     *refSolver
}

func loadFixture(t testing.TB, cfg Config) *fixture {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = repoRoot(t)
	}
	prog, err := Load(cfg)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	facts, err := Extract(prog)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	return &fixture{t: t, prog: prog, facts: facts}
}

// The programs of the one-idea testdata packages, loaded and extracted
// together once.
var (
	sharedOnce  sync.Once
	sharedFx    *fixture
	sharedError string
)

var sharedPkgs = []string{
	"closure", "field", "maps", "chans", "iface", "ctor", "gostmt", "global",
	"appendcopy", "methodval", "deferrecover", "embed", "generics", "synclib", "timer", "structcopy",
	"asserts",
}

// sharedFixture returns the shared testdata's fixture.
func sharedFixture(t *testing.T) *fixture {
	t.Helper()
	sharedOnce.Do(func() {
		var pats []string
		for _, p := range sharedPkgs {
			pats = append(pats, "./"+testdataDir+"/"+p)
		}
		prog, err := Load(Config{Dir: repoRoot(t), Patterns: pats, Tests: true})
		if err != nil {
			sharedError = err.Error()
			return
		}
		facts, err := Extract(prog)
		if err != nil {
			sharedError = err.Error()
			return
		}
		sharedFx = &fixture{prog: prog, facts: facts, s: newRefSolver(facts)}
	})
	if sharedError != "" {
		t.Fatal(sharedError)
	}
	fx := *sharedFx
	fx.t = t
	return &fx
}

// marker returns the file and line of the comment "// @name" in a testdata package.
func (fx *fixture) marker(pkg, name string) (string, int) {
	fx.t.Helper()
	dir := filepath.Join(repoRoot(fx.t), testdataDir, pkg)
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, file := range files {
		fh, err := os.Open(file)
		if err != nil {
			fx.t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		line := 0
		for sc.Scan() {
			line++
			text := sc.Text()
			if i := strings.Index(text, "// @"); i >= 0 && strings.Fields(text[i+4:])[0] == name {
				fh.Close()
				return file, line
			}
		}
		fh.Close()
	}
	fx.t.Fatalf("no marker @%s in %s", name, dir)
	return "", 0
}

// fn returns the M id of the function named name, relative to a testdata
// package: "main", "main$1", "(*T).m", "(*Box[*int]).Get".
func (fx *fixture) fn(pkg, name string) uint32 {
	fx.t.Helper()
	path := "github.com/chordgo/chordgo/" + testdataDir + "/" + pkg
	for _, p := range fx.prog.Packages {
		if p.PkgPath != path {
			continue
		}
		for m, f := range fx.facts.funcs {
			if f.RelString(p.SSA.Pkg) == name {
				return uint32(m)
			}
		}
	}
	fx.t.Fatalf("no function %s in %s", name, pkg)
	return 0
}

// fnNamed returns the M id of the function whose String() is exactly s.
func (fx *fixture) fnNamed(s string) (uint32, bool) {
	for m, f := range fx.facts.funcs {
		if f.String() == s {
			return uint32(m), true
		}
	}
	return 0, false
}

func (fx *fixture) atLine(file string, line int, pos func(uint32) (string, int), n int) []uint32 {
	var out []uint32
	for id := range n {
		f, l := pos(uint32(id))
		if l == line && f == file {
			out = append(out, uint32(id))
		}
	}
	return out
}

// accessesAt returns the E ids at a marker.
func (fx *fixture) accessesAt(pkg, marker string) []uint32 {
	file, line := fx.marker(pkg, marker)
	return fx.atLine(file, line, func(id uint32) (string, int) {
		p := fx.facts.AccessPos(id)
		return p.Filename, p.Line
	}, fx.facts.Size(DomE))
}

// callsAt returns the I ids at a marker.
func (fx *fixture) callsAt(pkg, marker string) []uint32 {
	file, line := fx.marker(pkg, marker)
	return fx.atLine(file, line, func(id uint32) (string, int) {
		p := fx.facts.CallPos(id)
		return p.Filename, p.Line
	}, fx.facts.Size(DomI))
}

// sitesAt returns the root sites of a kind at a marker.
func (fx *fixture) sitesAt(pkg, marker string, kind SiteKind) []uint32 {
	file, line := fx.marker(pkg, marker)
	return fx.atLine(file, line, func(id uint32) (string, int) {
		if fx.facts.sites[id].Kind != kind {
			return "", 0
		}
		p := fx.facts.SitePos(id)
		return p.Filename, p.Line
	}, fx.facts.Size(DomH))
}

func (fx *fixture) site(pkg, marker string, kind SiteKind) uint32 {
	fx.t.Helper()
	return fx.siteOfType(pkg, marker, kind, "")
}

// siteOfType returns the root site of a kind at a marker whose object type
// is typ ("" = any).
func (fx *fixture) siteOfType(pkg, marker string, kind SiteKind, typ string) uint32 {
	fx.t.Helper()
	var hs []uint32
	for _, h := range fx.sitesAt(pkg, marker, kind) {
		if typ == "" || types.TypeString(fx.facts.sites[h].Type, nil) == typ {
			hs = append(hs, h)
		}
	}
	if len(hs) != 1 {
		fx.t.Fatalf("%s @%s: want one %s site, got %v", pkg, marker, kind, hs)
	}
	return hs[0]
}

// valuesAt returns the V ids of values at a marker that satisfy pred.
func (fx *fixture) valuesAt(pkg, marker string, pred func(ssa.Value) bool) []uint32 {
	file, line := fx.marker(pkg, marker)
	return fx.atLine(file, line, func(id uint32) (string, int) {
		if pred != nil && !pred(fx.facts.values[id]) {
			return "", 0
		}
		p := fx.facts.ValuePos(id)
		return p.Filename, p.Line
	}, fx.facts.Size(DomV))
}

func (fx *fixture) value(pkg, marker string, pred func(ssa.Value) bool) uint32 {
	fx.t.Helper()
	vs := fx.valuesAt(pkg, marker, pred)
	if len(vs) != 1 {
		var descs []string
		for _, v := range fx.valuesAt(pkg, marker, nil) {
			descs = append(descs, fx.facts.ValueDesc(v))
		}
		fx.t.Fatalf("%s @%s: want one value, got %v among %q", pkg, marker, vs, descs)
	}
	return vs[0]
}

// has reports whether relation rel holds the tuple.
func (fx *fixture) has(rel string, tuple ...uint32) bool {
	ar, data := fx.facts.Flat(rel)
	if ar != len(tuple) {
		fx.t.Fatalf("%s has arity %d, not %d", rel, ar, len(tuple))
	}
	for k := 0; k < len(data); k += ar {
		if slices.Equal(data[k:k+ar], tuple) {
			return true
		}
	}
	return false
}

// where returns the tuples of rel whose column col is x.
func (fx *fixture) where(rel string, col int, x uint32) [][]uint32 {
	var out [][]uint32
	for _, t := range fx.facts.Tuples(rel) {
		if t[col] == x {
			out = append(out, t)
		}
	}
	return out
}

// accessed returns the sites the accesses at a marker read (or write), by the solver.
func (fx *fixture) accessed(pkg, marker, rel string) []uint32 {
	fx.t.Helper()
	es := fx.accessesAt(pkg, marker)
	if len(es) == 0 {
		fx.t.Fatalf("%s @%s: no access", pkg, marker)
	}
	var out []uint32
	for _, e := range es {
		for _, t := range fx.where(rel, 0, e) {
			out = append(out, fx.s.pointsTo(t[1])...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (fx *fixture) siteDescs(hs []uint32) []string {
	var out []string
	for _, h := range hs {
		out = append(out, fx.facts.SiteDesc(h))
	}
	return out
}

// subSiteByPath returns the sub-site of root h reached by the field names
// ("[*]", "[key]", "[value]", "[chan]" or a field name).
func (fx *fixture) subSiteByPath(h uint32, path ...string) uint32 {
	fx.t.Helper()
	for _, name := range path {
		found := false
		for _, t := range fx.where("subSite", 0, h) {
			label := fx.facts.fieldLabel(t[1])
			if label == name || label == "."+name {
				h, found = t[2], true
				break
			}
		}
		if !found {
			fx.t.Fatalf("site %s has no sub-site %s", fx.facts.SiteDesc(h), name)
		}
	}
	return h
}

func (fx *fixture) calleeNames(i uint32) []string {
	var out []string
	for m := range fx.s.callees[i] {
		out = append(out, fx.facts.funcs[m].String())
	}
	slices.Sort(out)
	return out
}

func isInstr[T ssa.Value](v ssa.Value) bool {
	_, ok := v.(T)
	return ok
}

// ciPass is what tests compare with in the context-insensitive pass's
// results, which the Analyzer does not keep.
type ciPass struct {
	pt    [][]uint32 // by V: the sites the value may point to, sorted
	reach []bool     // by M
}

// analyzeCI runs the context-insensitive pass over f and reads ci.dl's
// points-to and reached functions off its database.
func analyzeCI(t *testing.T, f *Facts) (*Analyzer, *ciPass) {
	t.Helper()
	ci := &ciPass{pt: make([][]uint32, f.Size(DomV)), reach: make([]bool, f.Size(DomM))}
	a, err := NewRecordingAnalyzer(f, func(db *datalog.Database) {
		for t := range db.Tuples("pt") {
			ci.pt[t[0]] = append(ci.pt[t[0]], t[1])
		}
		for t := range db.Tuples("reach") {
			ci.reach[t[0]] = true
		}
	})
	if err != nil {
		t.Fatalf("NewAnalyzer: %v", err)
	}
	for _, l := range ci.pt {
		slices.Sort(l)
	}
	return a, ci
}
