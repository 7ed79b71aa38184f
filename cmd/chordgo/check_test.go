package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCaptured runs the command line args and returns its exit status and
// standard output.
func runCaptured(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	var out bytes.Buffer
	done := make(chan error)
	go func() {
		_, err := io.Copy(&out, r)
		done <- err
	}()
	code := run(args)
	os.Stdout = stdout
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

func testdata(t *testing.T, elem ...string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(append([]string{"..", "..", "testdata"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheck(t *testing.T) {
	racy := testdata(t, "races", "closure_write_racy")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // substrings of standard output
	}{
		{"race", []string{"check", racy}, 1, []string{"WARNING: DATA RACE", "main.go:11:3", "main.go:14:2", "Location: variable x", "chordgo: 1 location, 1 access pair\n"}},
		{"no race", []string{"check", testdata(t, "races", "chan_unbuffered_send")}, 0, []string{"chordgo: 0 locations, 0 access pairs\n"}},
		{"bad -paths", []string{"check", "-paths", "-1", racy}, 2, nil},
		{"stage off", []string{"check", "-mhp=false", testdata(t, "races", "chan_unbuffered_send")}, 1, []string{"WARNING: DATA RACE"}},
		{"broken package", []string{"check", testdata(t, "check") + "/..."}, 2, []string{"check/racy/main.go:9:3"}},
		{"bad flag", []string{"check", "-nosuchflag"}, 2, nil},
		{"no packages", []string{"check", testdata(t, "check", "nonexistent")}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runCaptured(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestCheckJSON checks the documented schema on one race, that two runs
// print the same bytes, and that times are only printed with -stats.
func TestCheckJSON(t *testing.T) {
	dir := testdata(t, "races", "closure_write_racy")
	code, out := runCaptured(t, "check", "-json", dir)
	if code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
	var rep struct {
		Races []struct {
			ID       string
			Location struct{ ID, Kind, Desc string }
			Accesses []struct {
				Pos, Op, Func string
				Goroutine     struct{ Kind, Entry string }
				Roots         []string
				Path          []struct{ Func, Pos string }
				Locks         []string
			}
		}
		Stats struct {
			Pairs  map[string]int
			Demand struct {
				Iterations int
				SitesByK   map[string]int
				RacePairs  []int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Races) != 1 || len(rep.Races[0].Accesses) != 2 {
		t.Fatalf("want one race of two accesses: %s", out)
	}
	race := rep.Races[0]
	if race.ID == "" || race.Location.ID == "" {
		t.Errorf("race id %q, location id %q: want both", race.ID, race.Location.ID)
	}
	if race.Location.Kind != "variable" {
		t.Errorf("location kind %q, want variable", race.Location.Kind)
	}
	kinds := map[string]bool{}
	for _, a := range race.Accesses {
		if !filepath.IsAbs(strings.Split(a.Pos, ":")[0]) || a.Op != "write" || a.Func == "" {
			t.Errorf("access %+v: want an absolute position, op write, a function", a)
		}
		if len(a.Roots) != 1 || !strings.HasSuffix(a.Roots[0], ".main") {
			t.Errorf("roots %v, want main", a.Roots)
		}
		if n := len(a.Path); n == 0 || a.Path[n-1].Pos != a.Pos {
			t.Errorf("path %v does not end at the access %s", a.Path, a.Pos)
		}
		if a.Locks == nil {
			t.Errorf("locks is null, want a list")
		}
		kinds[a.Goroutine.Kind] = true
	}
	if !kinds["root"] || !kinds["go"] {
		t.Errorf("goroutine kinds %v, want root and go", kinds)
	}
	if rep.Stats.Pairs["ultimate"] != 1 || rep.Stats.Pairs["original"] < 1 {
		t.Errorf("pairs %v", rep.Stats.Pairs)
	}
	if d := rep.Stats.Demand; d.Iterations < 1 || len(d.RacePairs) != d.Iterations || len(d.SitesByK) == 0 {
		t.Errorf("stats.demand %+v", d)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(out), "", "  "); err != nil || indented.String() != out {
		t.Errorf("JSON not indented as json.Indent does (%v):\n%s", err, out)
	}
	if strings.Contains(out, `"seconds"`) {
		t.Errorf("times without -stats:\n%s", out)
	}
	if _, again := runCaptured(t, "check", "-json", dir); again != out {
		t.Errorf("two runs differ:\n%s\n%s", out, again)
	}
	if _, withStats := runCaptured(t, "check", "-json", "-stats", dir); !strings.Contains(withStats, `"seconds"`) {
		t.Errorf("no times with -stats:\n%s", withStats)
	}
}
