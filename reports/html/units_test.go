package html

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/reports"
)

func TestSplitPos(t *testing.T) {
	for _, tc := range []struct {
		pos, file string
		line      int
		col       string
		ok        bool
	}{
		{"/a/b.go:12:3", "/a/b.go", 12, ":3", true},
		{"/a/b.go:12", "/a/b.go", 12, "", true},
		{`C:\a\b.go:7:1`, `C:\a\b.go`, 7, ":1", true},
		{"/a/x:y.go:4:2", "/a/x:y.go", 4, ":2", true},
		{"-", "", 0, "", false},
		{"/a/b.go", "", 0, "", false},
		{":3", "", 0, "", false},
	} {
		file, line, col, ok := splitPos(tc.pos)
		if file != tc.file || line != tc.line || col != tc.col || ok != tc.ok {
			t.Errorf("splitPos(%q) = %q, %d, %q, %v; want %q, %d, %q, %v", tc.pos, file, line, col, ok, tc.file, tc.line, tc.col, tc.ok)
		}
	}
}

// TestPrepare checks which directories a report may be written into.
func TestPrepare(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string // made before, relative to the directory; "x/" a directory
		err   string   // a part of the error; "" for none
	}{
		{"new", nil, ""},
		{"empty", []string{""}, ""},
		{"earlier report", []string{"index.html", "style.css", "app.js", "loc/0123456789abcdef.html", "src/main.go-01234567.html"}, ""},
		{"other file", []string{"index.html", "notes.txt"}, "holds notes.txt, which is not part of a chordgo HTML report"},
		{"other file in loc", []string{"loc/data.json"}, "holds data.json, which is not part of a chordgo HTML report"},
		{"directory in src", []string{"src/sub/"}, "holds sub, which is not part of a chordgo HTML report"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "report")
			for _, f := range tc.files {
				path := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if f != "" && !strings.HasSuffix(f, "/") {
					if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
						t.Fatal(err)
					}
				} else if err := os.MkdirAll(path, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := CheckDir(dir); (err == nil) != (tc.err == "") {
				t.Errorf("CheckDir: %v", err)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("CheckDir changed the directory: %v", err)
				}
			}
			err := prepare(dir)
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), dir)):
				t.Fatalf("error %v, want one naming %s that says %q", err, dir, tc.err)
			case tc.err != "":
				if _, err := os.Stat(filepath.Join(dir, tc.files[len(tc.files)-1])); err != nil {
					t.Errorf("a refused directory lost a file: %v", err)
				}
			default:
				for _, sub := range []string{"loc", "src"} {
					if _, err := os.Stat(filepath.Join(dir, sub)); !os.IsNotExist(err) {
						t.Errorf("%s of an earlier report is still there (%v)", sub, err)
					}
				}
			}
		})
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := prepare(file); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("prepare of a file: %v, want an error naming it", err)
	}
}

// manyWriters returns a program in which n goroutines and main write one
// global: n(n+1)/2 access pairs on one location.
func manyWriters(n int) string {
	var b strings.Builder
	b.WriteString("package main\n\nvar x int\n\nfunc main() {\n")
	for i := range n {
		fmt.Fprintf(&b, "\tgo func() { x = %d }()\n", i)
	}
	b.WriteString("\tx = -1\n}\n")
	return b.String()
}

// TestPages checks that a location with more pairs than a page holds goes
// on pages linked to each other, every pair on one of them.
func TestPages(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module prog\n\ngo 1.22\n", "main.go": manyWriters(15)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := analyze(t, dir, ".")
	for _, maxPaths := range []int{0, reports.DefaultMaxPaths} {
		t.Run(fmt.Sprint("paths=", maxPaths), func(t *testing.T) {
			rep := a.report(maxPaths)
			out := writeReport(t, rep)
			pages := readPages(t, out)
			checkLinks(t, out, pages)
			var ids []string
			if err := rep.Each(func(race reports.Race, i, n int) error {
				ids = append(ids, race.ID)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(ids) != 120 || rep.Stats.Locations != 1 {
				t.Fatalf("%d pairs in %d locations, want 120 in 1", len(ids), rep.Stats.Locations)
			}
			locPages := 0
			found := 0
			for name, p := range pages {
				if !strings.HasPrefix(name, "loc/") {
					continue
				}
				locPages++
				for _, id := range ids {
					if p.ids["race-"+id] != nil {
						found++
					}
				}
			}
			if want := (len(ids) + maxPagePairs - 1) / maxPagePairs; locPages != want || found != len(ids) {
				t.Errorf("%d location pages with %d of the %d pairs; want %d pages with all", locPages, found, len(ids), want)
			}
		})
	}
}

// TestLargeSource checks that a file too large to show whole shows the
// lines around those linked to, and a small one every line.
func TestLargeSource(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		lines   int
		partial bool
	}{
		{"small.go", 100, false},
		{"large.go", maxSourcePage / 20, true},
	} {
		var b strings.Builder
		for i := range tc.lines {
			fmt.Fprintf(&b, "// line %d: <b>not bold</b> and some more text\n", i+1)
		}
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		s := newSources(dir)
		linked := []int{1, tc.lines / 2, tc.lines}
		for _, line := range linked {
			if pv := s.pos(fmt.Sprintf("%s:%d:1", path, line)); pv.URL == "" || pv.Text != fmt.Sprintf("%s:%d:1", tc.name, line) {
				t.Errorf("%s:%d shown as %+v", tc.name, line, pv)
			}
		}
		out := filepath.Join(t.TempDir(), "report")
		if err := s.writePages(out); err != nil {
			t.Fatal(err)
		}
		pages := readPages(t, out)
		if len(pages) != 1 {
			t.Fatalf("%d pages, want 1", len(pages))
		}
		for _, p := range pages {
			shown := 0
			for n := range p.doc.Descendants() {
				if strings.HasPrefix(attr(n, "id"), "L") {
					shown++
				}
				if n.Data == "b" {
					t.Errorf("%s: the file's markup made an element", p.path)
				}
			}
			for _, line := range linked {
				if p.ids[fmt.Sprint("L", line)] == nil {
					t.Errorf("%s: no line %d", p.path, line)
				}
			}
			if want := tc.lines; !tc.partial && shown != want || tc.partial && shown > len(linked)*(2*windowContext+1) {
				t.Errorf("%s: %d lines of %d shown (partial %v)", p.path, shown, tc.lines, tc.partial)
			}
		}
	}
	if s := newSources(dir); s.pos(filepath.Join(dir, "missing.go")+":3:1").URL != "" {
		t.Error("a file that cannot be read is linked to")
	}
}
