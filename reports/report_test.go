package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// writeModule writes a one-file main module into a new directory.
func writeModule(t testing.TB, src string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module prog\n\ngo 1.22\n", "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// chainProgram returns a program of n functions, each incrementing *p and
// calling the next, run by main and by one goroutine at the same time:
// n writes and n reads of one variable, paths up to n calls long, and
// n(n+1)/2 write-write plus n*n write-read racing pairs.
func chainProgram(n int) string {
	var b strings.Builder
	b.WriteString("package main\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func f%d(p *int) {\n\t*p++\n", i)
		if i+1 < n {
			fmt.Fprintf(&b, "\tf%d(p)\n", i+1)
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("func main() {\n\tx := new(int)\n\tgo f0(x)\n\tf0(x)\n}\n")
	return b.String()
}

// analyze runs the funnel at k = 1, as chordgo check -demand=false does,
// over the module in dir.
func analyze(t testing.TB, dir string) (*pointsto.Result, *races.Result) {
	t.Helper()
	return analyzePatterns(t, dir, ".")
}

// analyzePatterns runs the funnel at k = 1 over the packages that patterns
// name in dir.
func analyzePatterns(t testing.TB, dir string, patterns ...string) (*pointsto.Result, *races.Result) {
	t.Helper()
	dr, err := demand.Run(analyzerOf(t, pointsto.Config{Patterns: patterns, Dir: dir}), demand.Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	return dr.PointsTo, dr.Races
}

// analyzerOf loads cfg and runs the context-insensitive pass.
func analyzerOf(t testing.TB, cfg pointsto.Config) *pointsto.Analyzer {
	t.Helper()
	a, err := pointsto.LoadAnalyzer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// countingWriter counts the bytes written and keeps none of them.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// TestChainBounds checks that a report's cost follows what it shows: one
// location whatever the number of pairs, call paths computed only for the
// pairs shown with paths, and a pair without paths a line whose length
// does not grow with the paths' length.
func TestChainBounds(t *testing.T) {
	for _, tc := range []struct {
		n, maxPaths int
		wantPaths   int // paths computed by a write: 2 per race shown with paths
		maxBytes    int // per access pair, text, besides its two file names
	}{
		{n: 30, maxPaths: 3, wantPaths: 6, maxBytes: 100},
		{n: 60, maxPaths: 3, wantPaths: 6, maxBytes: 100},
		{n: 60, maxPaths: 1, wantPaths: 2, maxBytes: 100},
		// All paths: a path of up to 60 calls per access.
		{n: 60, maxPaths: 0, wantPaths: 2 * (60*61/2 + 60*60), maxBytes: 100_000},
	} {
		t.Run(fmt.Sprintf("n=%d,paths=%d", tc.n, tc.maxPaths), func(t *testing.T) {
			dir := writeModule(t, chainProgram(tc.n))
			r, res := analyze(t, dir)
			pairs := tc.n*(tc.n+1)/2 + tc.n*tc.n
			rep := Build(r, res, Options{MaxPaths: tc.maxPaths})
			if rep.Stats.Pairs.Ultimate != pairs || rep.Stats.Locations != 1 {
				t.Fatalf("%d locations, %d pairs; want 1 location, %d pairs", rep.Stats.Locations, rep.Stats.Pairs.Ultimate, pairs)
			}
			if rep.b.paths.computed != 0 {
				t.Errorf("Build computed %d paths, want none", rep.b.paths.computed)
			}
			var text countingWriter
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if got := rep.b.paths.computed; got != tc.wantPaths {
				t.Errorf("text: %d paths computed, want %d", got, tc.wantPaths)
			}
			perPair := tc.maxBytes + 2*len(filepath.Join(dir, "main.go"))
			if text.n > perPair*pairs {
				t.Errorf("text: %d bytes for %d pairs, more than %d a pair", text.n, pairs, perPair)
			}
			rep.b.paths.computed = 0
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			if got := rep.b.paths.computed; got != tc.wantPaths {
				t.Errorf("JSON: %d paths computed, want %d", got, tc.wantPaths)
			}
			if !json.Valid(js.Bytes()) {
				t.Errorf("JSON: not valid")
			}
		})
	}
}

// twoLocations has two globals raced on: a by two writes of a goroutine
// against one of main, b by one write on each side.
const twoLocations = `package main

var a, b int

func main() {
	go func() {
		a = 1
		a = 2
		b = 1
	}()
	a = 3
	b = 2
}
`

// TestGroupedText checks that the text shows each location once with its
// pairs, those past MaxPaths one line each, and the summary counts.
func TestGroupedText(t *testing.T) {
	r, res := analyze(t, writeModule(t, twoLocations))
	for _, tc := range []struct {
		maxPaths      int
		want, notWant []string // regular expressions
	}{
		{0,
			[]string{`(?s)^=+\nWARNING: DATA RACE \(static\)\nLocation: global prog\.a\n  location [0-9a-f]{16}, 2 access pairs\n\nWrite at \S+main.go:11:2 by root prog\.main:\n  prog\.main\(\)\n      \S+main.go:11:2\n\nPrevious write at \S+main.go:7:3 by goroutine running prog\.main\$1, started at \S+main.go:6:2:\n  prog\.main\$1\(\)\n      \S+main.go:7:3\n\nRace [0-9a-f]{16}\n-+\n`,
				`(?m)^Location: global prog\.b\n  location [0-9a-f]{16}, 1 access pair$`,
				`\n=+\nchordgo: 2 locations, 3 access pairs\n$`},
			[]string{`without call paths`}},
		{1,
			[]string{`(?m)^1 more access pair without call paths \(-paths 0 shows them\):\n  Write at \S+main.go:11:2, previous write at \S+main.go:8:3 \(race [0-9a-f]{16}\)\n=+\nWARNING`},
			nil},
	} {
		t.Run(fmt.Sprint("paths=", tc.maxPaths), func(t *testing.T) {
			var out strings.Builder
			if err := Build(r, res, Options{MaxPaths: tc.maxPaths}).WriteText(&out); err != nil {
				t.Fatal(err)
			}
			for _, re := range tc.want {
				if !regexp.MustCompile(re).MatchString(out.String()) {
					t.Errorf("output does not match %s:\n%s", re, out.String())
				}
			}
			for _, re := range tc.notWant {
				if regexp.MustCompile(re).MatchString(out.String()) {
					t.Errorf("output matches %s:\n%s", re, out.String())
				}
			}
		})
	}
}

// raceIDs returns the location and race ids of the JSON report, race by
// race, and the positions of the accesses.
func raceIDs(t *testing.T, src string) (ids []string, positions []string) {
	t.Helper()
	r, res := analyze(t, writeModule(t, src))
	var out bytes.Buffer
	if err := Build(r, res, Options{}).WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Races []struct {
			ID       string
			Location struct{ ID string }
			Accesses []struct{ Pos string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, race := range rep.Races {
		ids = append(ids, race.Location.ID+" "+race.ID)
		positions = append(positions, filepath.Base(race.Accesses[0].Pos)+" "+filepath.Base(race.Accesses[1].Pos))
	}
	return ids, positions
}

// TestStableIDs checks that ids do not change when lines move and that
// different races and locations have different ids.
func TestStableIDs(t *testing.T) {
	ids, positions := raceIDs(t, twoLocations)
	if len(ids) != 3 {
		t.Fatalf("%d races, want 3: %v", len(ids), positions)
	}
	seen := map[string]bool{}
	locations := map[string]bool{}
	for _, id := range ids {
		loc, race, _ := strings.Cut(id, " ")
		if seen[race] {
			t.Errorf("race id %s given twice: %v", race, ids)
		}
		seen[race] = true
		locations[loc] = true
	}
	if len(locations) != 2 {
		t.Errorf("%d location ids, want 2: %v", len(locations), ids)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"blank line above both accesses", "\nvar a, b int", "\n\nvar a, b int"},
		{"function added above", "\nvar a, b int", "\nfunc other() {\n\ta = 4\n\tb = 3\n}\n\nvar a, b int"},
		{"line added between the accesses", "\n\ta = 3\n", "\n\tprintln()\n\ta = 3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(twoLocations, tc.old, tc.new, 1)
			if src == twoLocations {
				t.Fatalf("edit %q not applied", tc.old)
			}
			moved, movedPositions := raceIDs(t, src)
			if strings.Join(movedPositions, ",") == strings.Join(positions, ",") {
				t.Fatalf("no access moved: %v", positions)
			}
			if strings.Join(moved, ",") != strings.Join(ids, ",") {
				t.Errorf("ids changed:\n%v\n%v", ids, moved)
			}
		})
	}
}

// TestStableIDsKinds checks on races of every location kind that edits
// outside the racing functions keep the ids: lines moved by a blank line
// above both accesses, a function added, a function added and called
// after the accesses (its own race gets a new id, the others keep theirs).
func TestStableIDsKinds(t *testing.T) {
	ids, positions := raceIDs(t, kindsProgram)
	if len(ids) != 5 {
		t.Fatalf("%d races, want 5: %v", len(ids), positions)
	}
	const unrelated = "func unrelated() *T {\n\tu := &T{}\n\tgo func() { u.n = 3 }()\n\treturn u\n}\n\nfunc main() {"
	for _, tc := range []struct {
		name, old, new string
		added          int // races the edit adds
	}{
		{"blank line above both accesses", "\nfunc main() {", "\n\nfunc main() {", 0},
		{"function added", "func main() {", unrelated, 0},
		{"function added and called after the accesses", "\tprintln(x)\n", "\tprintln(x)\n\tunrelated().n = 4\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(kindsProgram, tc.old, tc.new, 1)
			if tc.added > 0 {
				src = strings.Replace(src, "func main() {", unrelated, 1)
			}
			if src == kindsProgram {
				t.Fatalf("edit %q not applied", tc.old)
			}
			moved, movedPositions := raceIDs(t, src)
			if tc.added == 0 && strings.Join(movedPositions, ",") == strings.Join(positions, ",") {
				t.Fatalf("no access moved: %v", positions)
			}
			if len(moved) != len(ids)+tc.added {
				t.Fatalf("%d races, want %d: %v", len(moved), len(ids)+tc.added, movedPositions)
			}
			for _, id := range ids {
				if !slices.Contains(moved, id) {
					t.Errorf("id %s (location, race) gone:\n%v\n%v", id, ids, moved)
				}
			}
		})
	}
}

// TestJSONLayout checks that the streamed JSON is laid out as json.Indent
// lays it out, with or without errors, and has times only when asked.
func TestJSONLayout(t *testing.T) {
	r, res := analyze(t, writeModule(t, twoLocations))
	for _, tc := range []struct {
		name    string
		errors  []string
		timings bool
	}{
		{"plain", nil, false},
		{"errors", []string{"pkg: main.go:1:1: broken"}, false},
		{"timings", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Build(r, res, Options{MaxPaths: 1, Timings: tc.timings})
			rep.Errors = tc.errors
			var out, indented bytes.Buffer
			if err := rep.WriteJSON(&out); err != nil {
				t.Fatal(err)
			}
			if err := json.Indent(&indented, out.Bytes(), "", "  "); err != nil || indented.String() != out.String() {
				t.Errorf("not laid out as json.Indent does (%v):\n%s", err, out.String())
			}
			var got struct {
				Races  []json.RawMessage
				Errors []string
				Stats  struct{ Seconds map[string]float64 }
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Races) != 3 || strings.Join(got.Errors, ",") != strings.Join(tc.errors, ",") {
				t.Errorf("%d races, errors %q; want 3, %q", len(got.Races), got.Errors, tc.errors)
			}
			if (got.Stats.Seconds != nil) != tc.timings {
				t.Errorf("stats.seconds %v with Timings %v", got.Stats.Seconds, tc.timings)
			}
		})
	}
}

// lockedCall calls set with mu held in main, and without it in a
// goroutine: main's frame holds mu at the call, the goroutine's none.
const lockedCall = `package main

import "sync"

var (
	mu sync.Mutex
	x  int
)

func set() {
	x = 1
}

func main() {
	go func() {
		set()
	}()
	mu.Lock()
	set()
	mu.Unlock()
}
`

// TestFrameLocks checks the locks of each frame of a call path, and that
// Func finds the functions a race names.
func TestFrameLocks(t *testing.T) {
	r, res := analyze(t, writeModule(t, lockedCall))
	rep := Build(r, res, Options{})
	var races []Race
	if err := rep.Each(func(race Race, i, n int) error {
		races = append(races, race)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(races) != 1 {
		t.Fatalf("%d races, want 1: %+v", len(races), races)
	}
	locks := map[string][]string{} // by the function of each path's first frame
	for _, a := range races[0].Accesses {
		if len(a.Path) != 2 || a.Path[1].Func != "prog.set" || a.Path[1].Locks != nil {
			t.Fatalf("path %+v: want a call, then the access in prog.set without frame locks", a.Path)
		}
		locks[a.Path[0].Func] = a.Path[0].Locks
	}
	for _, tc := range []struct {
		caller string
		locks  string // regular expression for the locks joined by ","; "" for none
	}{
		{"prog.main", `^&mu \(\S+main\.go:6\)$`},
		{"prog.main$1", `^$`},
	} {
		got, ok := locks[tc.caller]
		if !ok {
			t.Errorf("no path from %s: %v", tc.caller, locks)
			continue
		}
		if s := strings.Join(got, ","); !regexp.MustCompile(tc.locks).MatchString(s) {
			t.Errorf("locks at the call in %s: %q, want %s", tc.caller, s, tc.locks)
		}
	}
	for _, tc := range []struct{ name, pos, pkg string }{
		{"prog.set", "main.go:10:6", "prog"},
		{"prog.main$1", "main.go:15:5", "prog"},
	} {
		info, ok := rep.Func(tc.name)
		if !ok || !strings.HasSuffix(info.Pos, string(filepath.Separator)+tc.pos) || info.Pkg != tc.pkg {
			t.Errorf("Func(%s) = %+v, %v; want %s in package %s", tc.name, info, ok, tc.pos, tc.pkg)
		}
	}
	if info, ok := rep.Func("prog.unnamed"); ok {
		t.Errorf("Func of a function no race names: %+v", info)
	}
}
