package racesuite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// indexPath is our index of the upstream suite, relative to this package's
// directory: per test, its file, the race detector's verdict, and whether a
// static analyzer can judge it and why.
const indexPath = "testdata/index.tsv"

func prepare(t *testing.T) *Suite {
	t.Helper()
	s, err := Prepare(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPrepare(t *testing.T) {
	s := prepare(t)

	if n := len(s.Tests); n < 300 || n > 400 {
		t.Errorf("suite has %d tests, want 300..400", n)
	}
	var race, norace, excl int
	seen := make(map[string]bool)
	for i, tc := range s.Tests {
		if seen[tc.Name] {
			t.Errorf("duplicate test %s", tc.Name)
		}
		seen[tc.Name] = true
		if tc.WantRace != strings.HasPrefix(tc.Name, "TestRace") {
			t.Errorf("%s: WantRace = %v", tc.Name, tc.WantRace)
		}
		if tc.WantRace {
			race++
		} else {
			norace++
		}
		if tc.Excluded != "" {
			excl++
		}
		if filepath.Dir(tc.File) != s.Dir || !filepath.IsAbs(tc.File) {
			t.Errorf("%s: file %s is not in %s", tc.Name, tc.File, s.Dir)
		}
		if skippedFiles[filepath.Base(tc.File)] {
			t.Errorf("%s: comes from %s, which must not be copied", tc.Name, tc.File)
		}
		if tc.Line <= 0 || tc.EndLine <= tc.Line {
			t.Errorf("%s: lines %d..%d", tc.Name, tc.Line, tc.EndLine)
		}
		if i > 0 {
			p := s.Tests[i-1]
			if p.File > tc.File || p.File == tc.File && p.Line >= tc.Line {
				t.Errorf("tests not sorted: %s:%d before %s:%d", p.File, p.Line, tc.File, tc.Line)
			}
		}
	}
	if race == 0 || norace == 0 {
		t.Errorf("want both kinds, got %d TestRace* and %d TestNoRace*", race, norace)
	}
	if excl == 0 {
		t.Error("no test excluded; the finalizer tests at least should be")
	}
	t.Logf("%d tests: %d TestRace*, %d TestNoRace*, %d excluded", len(s.Tests), race, norace, excl)

	// The line numbers must point at the declaration, and Excluded must
	// be set exactly for the table's names or top-of-body skips.
	for _, tc := range s.Tests {
		data, err := os.ReadFile(tc.File)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if !strings.HasPrefix(lines[tc.Line-1], "func "+tc.Name+"(") || lines[tc.EndLine-1] != "}" {
			t.Errorf("%s: lines %d..%d are %q..%q", tc.Name, tc.Line, tc.EndLine, lines[tc.Line-1], lines[tc.EndLine-1])
		}
		if want := excluded[tc.Name]; want != "" && tc.Excluded != want {
			t.Errorf("%s: Excluded = %q, want %q", tc.Name, tc.Excluded, want)
		}
		if excluded[tc.Name] == "" && tc.Excluded != "" && tc.Excluded != reasonSkip {
			t.Errorf("%s: Excluded = %q, not from the table nor a skip", tc.Name, tc.Excluded)
		}
	}

	data, err := os.ReadFile(filepath.Join(s.Dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^module racesuite\n\ngo 1\.\d+\n$`).Match(data) {
		t.Errorf("go.mod is %q", data)
	}
	for name := range skippedFiles {
		if _, err := os.Stat(filepath.Join(s.Dir, name)); err == nil {
			t.Errorf("%s was copied", name)
		}
	}

	// vet type-checks the module the way an analysis loads it. The race tag is
	// needed for runtime.RaceDisable (mop_test.go). Two analyzers are off
	// because upstream misuses WaitGroup.Add and drops fmt.Sprint's result on
	// purpose; a type error still fails vet whatever analyzers run.
	goroot, err := findGOROOT()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(goroot, "bin", "go"), "vet", "-tags", "race", "-unusedresult=false", "-waitgroup=false", ".")
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet in %s: %v\n%s", s.Dir, err, out)
	}
}

func TestPrepareErrors(t *testing.T) {
	nonEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(nonEmpty, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(nonEmpty, "x")
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(t.TempDir(), "nope"), "nope"},
		{"not a directory", file, "not a directory"},
		{"not empty", nonEmpty, "not empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Prepare(tc.dir)
			if err == nil || s != nil {
				t.Fatalf("Prepare(%s) = %v, %v; want an error", tc.dir, s, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

// indexRow is one test of testdata/index.tsv.
type indexRow struct {
	file, function, expected, static, reason string
}

// readIndex reads the index, checking each row on its own.
func readIndex(t *testing.T) map[string]indexRow {
	t.Helper()
	data, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	rows := make(map[string]indexRow)
	header := false
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		pos := fmt.Sprintf("%s:%d", indexPath, i+1)
		if strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 5 {
			t.Fatalf("%s: %d columns, want 5: %q", pos, len(cols), line)
		}
		if !header {
			if want := []string{"file", "function", "expected", "static", "reason"}; !slices.Equal(cols, want) {
				t.Fatalf("%s: header %q, want %q", pos, cols, want)
			}
			header = true
			continue
		}
		r := indexRow{cols[0], cols[1], cols[2], cols[3], cols[4]}
		if _, dup := rows[r.function]; dup {
			t.Errorf("%s: %s listed twice", pos, r.function)
		}
		rows[r.function] = r
		if want := map[bool]string{true: "race", false: "norace"}[strings.HasPrefix(r.function, "TestRace")]; r.expected != want {
			t.Errorf("%s: %s expects %q, its name says %q", pos, r.function, r.expected, want)
		}
		switch {
		case r.static != "judged" && r.static != "excluded":
			t.Errorf("%s: static %q, want judged or excluded", pos, r.static)
		case r.static == "excluded" && r.reason == "":
			t.Errorf("%s: %s is excluded without a reason", pos, r.function)
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", indexPath)
	}
	return rows
}

// TestIndex checks the suite and its exclusions against our index: the
// same tests in the same files, excluded for the same reasons.
func TestIndex(t *testing.T) {
	rows := readIndex(t)
	for name, reason := range excluded {
		if r, ok := rows[name]; !ok || r.static != "excluded" || r.reason != reason {
			t.Errorf("%s is excluded (%s), but the index says %+v", name, reason, r)
		}
	}
	s := prepare(t)
	inSuite := make(map[string]bool)
	for _, tc := range s.Tests {
		inSuite[tc.Name] = true
		r, ok := rows[tc.Name]
		switch {
		case !ok:
			t.Logf("%s is not in the index (newer Go release?)", tc.Name)
		case r.file != filepath.Base(tc.File):
			t.Errorf("%s is in %s, the index says %s", tc.Name, filepath.Base(tc.File), r.file)
		case r.static == "excluded" && tc.Excluded != r.reason:
			t.Errorf("%s: Excluded = %q, the index says excluded: %s", tc.Name, tc.Excluded, r.reason)
		case r.static == "judged" && tc.Excluded != "":
			t.Errorf("%s is excluded (%s), but the index says it can be judged", tc.Name, tc.Excluded)
		}
	}
	for name, r := range rows {
		if !inSuite[name] && !skippedFiles[r.file] {
			t.Logf("%s (%s) is not in this toolchain's suite (older Go release?)", name, r.file)
		}
		if skippedFiles[r.file] && r.static != "excluded" {
			t.Errorf("%s: its file %s is not copied, but the index says it can be judged", name, r.file)
		}
	}
}

func TestSkipsAtTop(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`t.Skip("broken")`, true},
		{`t.Skipf("broken: %d", 1)`, true},
		{`t.SkipNow()`, true},
		{"x := 1\n_ = x\nt.Skip()", false},
		{`if testing.Short() { t.Skip() }`, false},
		{`u.Skip()`, false},
		{`t.Log("x")`, false},
		{``, false},
	} {
		src := "package p\nfunc TestRaceX(t *testing.T) {\n" + tc.body + "\n}\n"
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
		if err != nil {
			t.Fatalf("%q: %v", tc.body, err)
		}
		if got := skipsAtTop(f.Decls[0].(*ast.FuncDecl)); got != tc.want {
			t.Errorf("skipsAtTop(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

func TestScore(t *testing.T) {
	s := &Suite{Tests: []Test{
		{Name: "TestRaceA", WantRace: true},
		{Name: "TestRaceB", WantRace: true},
		{Name: "TestRaceC", WantRace: true},
		{Name: "TestRaceSkipped", WantRace: true, Excluded: reasonSkip},
		{Name: "TestNoRaceD"},
		{Name: "TestNoRaceE"},
		{Name: "TestNoRaceF"},
		{Name: "TestNoRaceFin", Excluded: reasonFinalizer},
	}}
	races := []Race{
		// Found, whatever the package qualifier.
		{[2][]string{{"racesuite.TestRaceA"}, {"racesuite_test.TestRaceA", "TestRaceB"}}},
		// Only one access reached from TestRaceB, the other from TestRaceC:
		// a race across tests counts for neither.
		{[2][]string{{"TestRaceB"}, {"racesuite.TestRaceC"}}},
		// False alarm on D; E and F only appear on one side each.
		{[2][]string{{"TestNoRaceD", "TestNoRaceE"}, {"x.y.TestNoRaceD", "TestNoRaceF"}}},
		// Excluded tests are ignored even when "found".
		{[2][]string{{"TestRaceSkipped", "TestNoRaceFin"}, {"TestRaceSkipped", "TestNoRaceFin"}}},
		// A name is matched as a whole, not as a suffix.
		{[2][]string{{"racesuite.XTestRaceC"}, {"racesuite.XTestRaceC"}}},
	}
	b := s.Score(races)
	want := Scoreboard{
		RaceTests: 3, Found: 1, NoRaceTests: 3, FalseAlarms: 1,
		Missed: []string{"TestRaceB", "TestRaceC"}, Alarms: []string{"TestNoRaceD"},
	}
	if b.RaceTests != want.RaceTests || b.Found != want.Found ||
		b.NoRaceTests != want.NoRaceTests || b.FalseAlarms != want.FalseAlarms ||
		!slices.Equal(b.Missed, want.Missed) || !slices.Equal(b.Alarms, want.Alarms) {
		t.Errorf("Score = %+v, want %+v", *b, want)
	}
	if r := b.Recall(); r != 1.0/3 {
		t.Errorf("Recall = %v, want 1/3", r)
	}
	if r := b.FalseAlarmRate(); r != 1.0/3 {
		t.Errorf("FalseAlarmRate = %v, want 1/3", r)
	}
	str := b.String()
	for _, w := range []string{"33.3%", "TestRaceB", "TestRaceC", "TestNoRaceD"} {
		if !strings.Contains(str, w) {
			t.Errorf("String() lacks %q:\n%s", w, str)
		}
	}

	empty := (&Suite{}).Score(nil)
	if empty.Recall() != 0 || empty.FalseAlarmRate() != 0 {
		t.Errorf("empty scoreboard rates = %v, %v; want 0, 0", empty.Recall(), empty.FalseAlarmRate())
	}
}
