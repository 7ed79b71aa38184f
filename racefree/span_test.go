package racefree

import (
	"fmt"
	"go/ast"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
)

// TestSpanRedundant runs the span analysis on each function of
// testdata/racefree/span and compares, line by line, the kinds of the
// loads and stores it covers with the line's "// covered" comment.
func TestSpanRedundant(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../testdata/racefree/span"}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata/racefree/span does not load")
	}
	prog, ssaPkgs := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	want := map[int]string{} // line: the kinds covered, sorted
	for _, file := range pkgs[0].Syntax {
		for _, group := range file.Comments {
			for _, c := range group.List {
				if kinds, ok := strings.CutPrefix(c.Text, "// covered "); ok {
					want[prog.Fset.Position(c.Pos()).Line] = kinds
				}
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no covered comment in testdata/racefree/span")
	}
	got := map[int][]string{}
	funcs := 0
	for _, m := range ssaPkgs[0].Members {
		fn, ok := m.(*ssa.Function)
		if !ok || fn.Synthetic != "" {
			continue
		}
		if _, ok := fn.Syntax().(*ast.FuncDecl); !ok {
			continue
		}
		funcs++
		for instr, by := range spanRedundant(fn) {
			kind := "R"
			if _, ok := instr.(*ssa.Store); ok {
				kind = "W"
			}
			line := prog.Fset.Position(instr.Pos()).Line
			got[line] = append(got[line], kind)
			if len(by) == 0 {
				t.Errorf("line %d: %s covered by no access", line, kind)
			}
			for _, b := range by {
				if prog.Fset.Position(b.Pos()).Line >= line {
					t.Errorf("line %d: %s covered by an access at line %d, not before", line, kind, prog.Fset.Position(b.Pos()).Line)
				}
			}
		}
	}
	if funcs < 10 {
		t.Fatalf("only %d functions found in testdata/racefree/span", funcs)
	}
	for _, line := range slices.Sorted(maps.Keys(got)) {
		slices.Sort(got[line])
		if g := strings.Join(got[line], " "); g != want[line] {
			t.Errorf("line %d: covered %q, want %q", line, g, want[line])
		}
	}
	for line, kinds := range want {
		if _, ok := got[line]; !ok {
			t.Errorf("line %d: nothing covered, want %q", line, kinds)
		}
	}
}

// TestSpanRaces plans the overlay of testdata/racefree/spanraces's
// programs and checks where span redundancy applies and where it must
// not: covered's second increment is covered by the first (its read and
// write go through an accessor), release's write after an Unlock and
// readwrite's write after a read keep their checks. Each program then
// runs with -race without and with the overlay: no race is lost, and the
// race of its want comments is reported with the overlay.
func TestSpanRaces(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes programs with the standard library and runs them with -race")
	}
	root, err := filepath.Abs("../testdata/racefree/spanraces")
	if err != nil {
		t.Fatal(err)
	}
	funcs, overlayFile := planAndWrite(t, root, []string{"./covered", "./release", "./readwrite"}, nil)
	for _, tc := range []struct {
		dir, fn string
		covers  []string // line <- lines of the covering accesses, one per load or store covered
	}{
		{"covered", "work", []string{"16 <- 15 15", "16 <- 15 15"}},
		{"release", "main", nil},
		{"readwrite", "main", nil},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join(root, tc.dir)
			i := slices.IndexFunc(funcs, func(f Function) bool { return filepath.Dir(f.File) == dir && f.Name == tc.fn })
			if i < 0 {
				t.Fatalf("%s: no function %s in the plan", tc.dir, tc.fn)
			}
			var covers []string
			for _, c := range funcs[i].Covers {
				var by []string
				for _, p := range c.By {
					by = append(by, strconv.Itoa(p.Line))
				}
				covers = append(covers, fmt.Sprintf("%d <- %s", c.At.Line, strings.Join(by, " ")))
			}
			if !slices.Equal(covers, tc.covers) || funcs[i].SpanAccessors != len(tc.covers) {
				t.Errorf("%s: covered %q with %d accessors by span redundancy, want %q", tc.fn, covers, funcs[i].SpanAccessors, tc.covers)
			}
			got := compare(t, dir, overlayFile, nil, false, "", coveredBy(funcs))
			pair := wantPair(t, filepath.Join(dir, "main.go"))
			if _, ok := got[pair]; !ok {
				t.Errorf("the race %s is not reported with the overlay; reported: %v", pair, slices.Sorted(maps.Keys(got)))
			}
		})
	}
}

// wantPair returns the race that the want comments of file mark, as
// runRace names it: the sorted pair of the two lines' positions (a line
// with itself if only one is marked).
func wantPair(t *testing.T, file string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pos []string
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(line, `// want "race"`) {
			pos = append(pos, fmt.Sprintf("%s:%d", file, i+1))
		}
	}
	switch len(pos) {
	case 1:
		pos = append(pos, pos[0])
	case 2:
	default:
		t.Fatalf("%s: %d want comments, want 1 or 2", file, len(pos))
	}
	slices.Sort(pos)
	return pos[0] + " " + pos[1]
}

// TestSpanMark: bump's `return c.n` reads what `c.n++` wrote, with no
// release between. Taken to be racy (as a false alarm of chordgo would
// make it), it is covered, and bump is still marked, its cover listed;
// with the increment's store taken to be racy instead, nothing covers it
// (a read does not cover a write), and bump is not marked.
func TestSpanMark(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes a program with the standard library")
	}
	dr, err := demand.Analyze(pointsto.Config{Dir: "../testdata/racefree/spanmark", Patterns: []string{"."}}, demand.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		racy   string // the load or store taken to be racy
		marked bool
		covers []string
	}{
		{racy: "load of return c.n", marked: true, covers: []string{"11 <- 10 10"}},
		{racy: "store of c.n++", marked: false},
	} {
		t.Run(tc.racy, func(t *testing.T) {
			p := NewPlanner()
			p.Add(dr)
			p.join()
			var bump *ssa.Function
			for fn := range p.reached {
				if fn.Name() == "bump" {
					bump = fn
				}
			}
			if bump == nil {
				t.Fatal("bump not reached")
			}
			var instrs []ssa.Instruction
			for _, b := range bump.Blocks {
				instrs = append(instrs, slices.DeleteFunc(slices.Clone(b.Instrs), func(in ssa.Instruction) bool { return !isLoadOrStore(in) })...)
			}
			if len(instrs) != 3 { // c.n++'s load and store, return's load
				t.Fatalf("bump has %d loads and stores, want 3", len(instrs))
			}
			racy := instrs[2]
			if !tc.marked {
				racy = instrs[1]
			}
			p.racy[bump], p.racyE[racy] = true, true
			funcs := p.Plan(func(string) bool { return true })
			f := funcs[slices.IndexFunc(funcs, func(f Function) bool { return f.Name == "bump" })]
			var covers []string
			for _, c := range f.Covers {
				var by []string
				for _, p := range c.By {
					by = append(by, strconv.Itoa(p.Line))
				}
				covers = append(covers, fmt.Sprintf("%d <- %s", c.At.Line, strings.Join(by, " ")))
			}
			if f.Marked != tc.marked || !slices.Equal(covers, tc.covers) {
				t.Errorf("bump: marked %v (%s), covers %q; want marked %v, covers %q", f.Marked, f.Reason, covers, tc.marked, tc.covers)
			}
			if tc.marked && f.Redundant != 1 {
				t.Errorf("bump: %d loads and stores counted as covered only, want 1", f.Redundant)
			}
		})
	}
}
