package racefree

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
)

func readOverlay(t *testing.T, overlayFile string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(overlayFile)
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	return o.Replace
}

// TestWrite marks the functions named in each file and checks the copy:
// every token has the position (file, line, column) it has in the
// original, the copy is gofmt-stable, and the package builds with -race
// under the overlay.
func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		mark []string
	}{
		{name: "first declaration", mark: []string{"F"}, src: "package p\n\nfunc F(p *int) { *p = 1 }\n"},
		{name: "doc comments and a method", mark: []string{"F", "m"}, src: `package p

type T struct{ x int }

// F sets x.
func F(t *T) {
	t.x = 1
}

// m reads x.
func (t *T) m() int { return t.x }

func G() {}
`},
		{name: "a line directive before", mark: []string{"F"}, src: "package p\n\n//line generated.go:100\nfunc F(p *int) { *p = 1 }\n\nfunc G(p *int) { *p = 2 }\n"},
		{name: "a directive after the doc comment", mark: []string{"F"}, src: "package p\n\n// F sets *p.\n//\n//go:noinline\nfunc F(p *int) { *p = 1 }\n"},
		{name: "nothing marked", src: "package p\n\nfunc F() {}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "p.go")
			for name, data := range map[string]string{"go.mod": "module p\n\ngo 1.26\n", "p.go": tc.src} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, file, tc.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			var funcs []Function
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					raw := fset.PositionFor(fd.Pos(), false)
					funcs = append(funcs, Function{
						Name: fd.Name.Name, Pos: fset.PositionFor(fd.Pos(), true), File: file, Offset: raw.Offset,
						Marked: strings.Contains(" "+strings.Join(tc.mark, " ")+" ", " "+fd.Name.Name+" "),
					})
				}
			}
			overlayFile := filepath.Join(t.TempDir(), "o.json")
			if err := Write(overlayFile, funcs); err != nil {
				t.Fatal(err)
			}
			replace := readOverlay(t, overlayFile)
			if len(tc.mark) == 0 {
				if len(replace) != 0 {
					t.Fatalf("nothing marked, but the overlay replaces %v", replace)
				}
				return
			}
			copied, err := os.ReadFile(replace[file])
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(string(copied), "//go:norace\n"); got != len(tc.mark) {
				t.Errorf("%d //go:norace in the copy, want %d:\n%s", got, len(tc.mark), copied)
			}
			want, got := tokens(t, file, []byte(tc.src)), tokens(t, file, copied)
			if len(got) != len(want) {
				t.Fatalf("%d tokens in the copy, %d in the file:\n%s", len(got), len(want), copied)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("token %d: %v in the copy, %v in the file", i, got[i], want[i])
				}
			}
			if formatted, err := format.Source(copied); err != nil || string(formatted) != string(copied) {
				t.Errorf("the copy is not gofmt-stable (%v):\n%s", err, copied)
			}
			cmd := exec.Command("go", "build", "-race", "-overlay", overlayFile, ".")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("go build -race -overlay: %v\n%s", err, out)
			}
		})
	}
}

// TestWriteDir: a second Write replaces the first's copies; a directory
// with files Write did not make is refused.
func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.go")
	if err := os.WriteFile(src, []byte("package p\n\nfunc F(p *int) { *p = 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	marked := []Function{{Name: "F", Pos: token.Position{Filename: src, Line: 3, Column: 1}, File: src, Offset: 11, Marked: true}}
	overlayFile := filepath.Join(dir, "o.json")
	for _, funcs := range [][]Function{marked, marked, nil} {
		if err := Write(overlayFile, funcs); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(Dir(overlayFile))
		if err != nil {
			t.Fatal(err)
		}
		if want := len(funcs); len(entries) != want {
			t.Errorf("%d files in %s, want %d", len(entries), Dir(overlayFile), want)
		}
	}
	if err := os.WriteFile(filepath.Join(Dir(overlayFile), "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(overlayFile, marked)
	if err == nil || !strings.Contains(err.Error(), "o.files holds notes.txt, which an earlier chordgo racefree did not write") {
		t.Errorf("got error %v, want one naming notes.txt", err)
	}
}

type positioned struct {
	tok token.Token
	lit string
	pos token.Position // after //line directives, as the compiler sees it
}

// tokens scans src as the compiler does (comments apart, //line
// directives applied).
func tokens(t *testing.T, name string, src []byte) []positioned {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile(name, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, func(pos token.Position, msg string) { t.Errorf("%s: %s", pos, msg) }, 0)
	var out []positioned
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		p := fset.PositionFor(pos, true)
		p.Offset = 0 // the copy's bytes are not the file's
		out = append(out, positioned{tok, lit, p})
	}
}

// TestPlan checks the decision and its reason for each function of
// testdata/racefree/plan, which has one function per reason.
// planOne plans the overlay from one program's result.
func planOne(dr *demand.Result, replaceable func(string) bool) []Function {
	p := NewPlanner()
	p.Add(dr)
	return p.Plan(replaceable)
}

func TestPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes a program with the standard library")
	}
	dr, err := demand.Analyze(pointsto.Config{Dir: "../testdata/racefree/plan", Patterns: []string{"."}, Tests: true}, demand.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Function{}
	for _, f := range planOne(dr, func(string) bool { return true }) {
		got[f.Name] = f
	}
	for _, tc := range []struct {
		name   string
		reason Reason // "" for marked
	}{
		{"fill", ""},
		{"bump", Racy},
		{"twice", Inlinable},
		{"repeat", Inlinable},
		{"inClosure", Racy},
		{"first", Generic},
		{"unused", NotReached},
		{"main", Inlinable},
		{"stackOnly", NoChecks},
	} {
		f, ok := got[tc.name]
		switch {
		case !ok:
			t.Errorf("%s: not in the plan", tc.name)
		case f.Marked != (tc.reason == ""):
			t.Errorf("%s: marked %v, want %v (reason %q)", tc.name, f.Marked, tc.reason == "", f.Reason)
		case f.Reason != tc.reason:
			t.Errorf("%s: reason %q, want %q", tc.name, f.Reason, tc.reason)
		}
		delete(got, tc.name)
	}
	for name := range got {
		t.Errorf("%s: in the plan, not in the test's table", name)
	}
	// Not replaceable: nothing is marked.
	for _, f := range planOne(dr, func(string) bool { return false }) {
		if f.Marked || f.Name == "fill" && f.Reason != Unreplaceable {
			t.Errorf("%s with no file replaceable: marked %v, reason %q", f.Name, f.Marked, f.Reason)
		}
	}
}

// TestAccessors: the race-free loads and stores of a racy function go
// through accessors where the statement allows it; the copy keeps each
// line's tokens on its line, builds, prints what the program prints, and
// the race detector still reports the race each of three runs.
func TestAccessors(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes a program with the standard library and runs it with -race")
	}
	dir, err := filepath.Abs("../testdata/racefree/accessors")
	if err != nil {
		t.Fatal(err)
	}
	dr, err := demand.Analyze(pointsto.Config{Dir: dir, Patterns: []string{"."}, Tests: true}, demand.Options{})
	if err != nil {
		t.Fatal(err)
	}
	funcs := planOne(dr, func(string) bool { return true })
	var work, main Function
	for _, f := range funcs {
		switch f.Name {
		case "work":
			work = f
		case "main":
			main = f
		}
	}
	// main's closure captures scale by value: its store and two loads
	// keep their form; total's store in the closure goes through one.
	if main.Accessors != 1 || main.Skipped[SkipByValue] != 3 {
		t.Errorf("main: %d accessors, skipped %v; want 1 accessor and 3 skipped: %s", main.Accessors, main.Skipped, SkipByValue)
	}
	// Skipped: the range loop (no expression), the loads of the send
	// (statement), n.a /= 1 and n.b <<= 1 (may panic), n.xs[2] += with
	// a call, and n.a read and stored into Sprint's variadic array at one
	// position (not an op-assignment).
	want := map[Skip]int{SkipNoExpr: 1, SkipStatement: 4, SkipMayPanic: 4, SkipCalls: 3, SkipReadWrite: 2}
	if work.Marked || work.Reason != Racy || work.Accessors != 29 || !maps.Equal(work.Skipped, want) {
		t.Errorf("work: marked %v, reason %q, %d accessors, skipped %v; want not marked, racy, 29 accessors, skipped %v",
			work.Marked, work.Reason, work.Accessors, work.Skipped, want)
	}
	overlayFile := filepath.Join(t.TempDir(), "o.json")
	if err := Write(overlayFile, funcs); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "main.go")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := os.ReadFile(readOverlay(t, overlayFile)[file])
	if err != nil {
		t.Fatal(err)
	}
	want0, got0 := wordsByLine(t, orig), wordsByLine(t, copied)
	if !slices.EqualFunc(want0, got0, slices.Equal) {
		t.Errorf("the copy's lines do not have the file's words:\n%s", copied)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), file, copied, 0); err != nil {
		t.Errorf("the copy does not parse: %v", err)
	}
	for _, race := range []bool{false, true, true, true} {
		args := []string{"run", "-overlay", overlayFile, "."}
		if race {
			args = slices.Insert(args, 1, "-race")
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// Apart: the program's output may otherwise land inside the report.
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		if string(out) != "84\n" {
			t.Errorf("go %s printed %q, want 84; stderr:\n%s", strings.Join(args, " "), out, stderr.Bytes())
		}
		if race && !regexp.MustCompile(`(?s)WARNING: DATA RACE\n\S+ at \S+ by goroutine \d+:\n  main\.work\(\)\n      \S+/main\.go:39 `).Match(stderr.Bytes()) {
			t.Errorf("go %s did not report the race at main.go:39:\n%s", strings.Join(args, " "), stderr.Bytes())
		}
	}
}

// wordsByLine returns the identifiers and literals of each line of src,
// leaving out the accessors' names, with ++ and -- as the 1 their
// accessors add: what a rewrite must keep in place.
func wordsByLine(t *testing.T, src []byte) [][]string {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile("src.go", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	out := make([][]string, bytes.Count(src, []byte("\n"))+2)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.INC || tok == token.DEC {
			tok, lit = token.INT, "1"
		}
		if tok.IsLiteral() && lit != loadAccessor && lit != storeAccessor && !slices.Contains(slices.Collect(maps.Values(updateAccessors)), lit) {
			line := fset.Position(pos).Line
			out[line] = append(out[line], lit)
		}
	}
}
