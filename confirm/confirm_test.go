package confirm

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chordgo/chordgo/reports"
)

const module = "github.com/chordgo/chordgo/testdata/"

// staticRace is a race as chordgo reports it: the accesses at file:line:col
// of dir (under the repository's testdata), both reached from root.
func staticRace(t *testing.T, dir, root string, a, b string) reports.Race {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	var r reports.Race
	r.ID = dir + " " + a + " " + b
	for k, pos := range []string{a, b} {
		r.Accesses[k] = reports.Access{Pos: filepath.Join(abs, pos), Op: "write", Roots: []string{root}}
	}
	return r
}

// roots names how each root of the programs below is run.
func roots(t *testing.T) map[string]Root {
	t.Helper()
	prog := func(dir string, main bool) Program {
		abs, err := filepath.Abs(filepath.Join("..", "testdata", dir))
		if err != nil {
			t.Fatal(err)
		}
		return Program{Dir: abs, Name: module + dir, Main: main}
	}
	return map[string]Root{
		module + "confirm/racy.TestHit":          {Program: prog("confirm/racy", false), Test: "TestHit"},
		module + "confirm/racy.TestRename":       {Program: prog("confirm/racy", false), Test: "TestRename"},
		module + "confirm/rare.TestStart":        {Program: prog("confirm/rare", false), Test: "TestStart"},
		module + "confirm/racefree.TestHandoff":  {Program: prog("confirm/racefree", false), Test: "TestHandoff"},
		module + "confirm/setup.TestStart":       {Program: prog("confirm/setup", false), Test: "TestStart"},
		module + "confirm/address.TestStart":     {Program: prog("confirm/address", false), Test: "TestStart"},
		module + "confirm/order.TestStart":       {Program: prog("confirm/order", false), Test: "TestStart"},
		module + "races/closure_write_racy.main": {Program: prog("races/closure_write_racy", true)},
	}
}

func TestConfirm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs with -race")
	}
	hit := staticRace(t, "confirm/racy", module+"confirm/racy.TestHit", "racy.go:12:3", "racy.go:15:2")
	rename := staticRace(t, "confirm/racy", module+"confirm/racy.TestRename", "racy.go:29:2", "racy.go:26:3")
	rare := staticRace(t, "confirm/rare", module+"confirm/rare.TestStart", "rare.go:36:2", "rare.go:26:3")
	setup := staticRace(t, "confirm/setup", module+"confirm/setup.TestStart", "setup.go:15:2", "setup.go:31:2")
	shared := staticRace(t, "confirm/address", module+"confirm/address.TestStart", "address.go:18:30", "address.go:18:30")
	shared.Location = reports.Location{Kind: "field", Field: "(" + module + "confirm/address.counter).n"} // the hooks pass addresses of the raced field only
	var order []reports.Race
	for _, pos := range []string{"order.go:31:4", "order.go:30:6", "order.go:32:4", "order.go:34:4"} {
		order = append(order, staticRace(t, "confirm/order", module+"confirm/order.TestStart", pos, "order.go:46:2"))
	}
	handoff := staticRace(t, "confirm/racefree", module+"confirm/racefree.TestHandoff", "racefree.go:20:3", "racefree.go:33:2")
	hitAlsoRename := hit
	hitAlsoRename.Accesses[1].Roots = append(hitAlsoRename.Accesses[1].Roots, module+"confirm/racy.TestRename")
	closure := staticRace(t, "races/closure_write_racy", module+"races/closure_write_racy.main", "main.go:11:3", "main.go:14:2")
	type want struct {
		confirmed bool
		directed  bool
		vain      int    // the hooks' waits in vain before they met
		met       string // a part of the schedule's line that says they met
		test      string
		note      string // a part of the note
	}
	for _, tc := range []struct {
		name   string
		mode   Mode
		races  []reports.Race
		want   []want
		misses int // of TestRename's race
	}{
		{name: "test race in one run", mode: Undirected, races: []reports.Race{hit, rename},
			want: []want{{confirmed: true, test: "TestHit"}, {confirmed: true, test: "TestRename"}}},
		// The race of TestRename is not given, and TestRename runs: a miss.
		{name: "miss", mode: Undirected, races: []reports.Race{hitAlsoRename}, misses: 1,
			want: []want{{confirmed: true, test: "TestHit"}}},
		{name: "main program", mode: Both, races: []reports.Race{closure}, want: []want{{confirmed: true}}},
		// Undirected, the goroutine's write nearly always happens before
		// the unlock that orders it.
		{name: "rare undirected", mode: Undirected, races: []reports.Race{rare}, want: []want{{note: "not seen in 1 run of " + module + "confirm/rare TestStart"}}},
		{name: "rare directed", mode: Directed, races: []reports.Race{rare}, want: []want{{confirmed: true, directed: true, test: "TestStart"}}},
		// The hook first holds the write of the setup in vain, then the
		// goroutine's until the caller's comes.
		{name: "rare after a setup", mode: Both, races: []reports.Race{setup}, want: []want{{confirmed: true, directed: true, vain: 1, test: "TestStart"}}},
		// The hook holds the goroutine at the shared counter, lets the
		// caller pass at its own, and meets it at the shared one.
		{name: "same address", mode: Both, races: []reports.Race{shared}, want: []want{{confirmed: true, directed: true, test: "TestStart", met: "at the same address"}}},
		// The directed run of the first race, the caller going first,
		// shows the second; the held goroutine going first and the
		// caller's write right after its statement, each of the others.
		{name: "order", mode: Both, races: order, want: []want{
			{confirmed: true, directed: true, test: "TestStart", met: "; it went first"},
			{confirmed: true, directed: true, test: "TestStart", met: ", which went first"},
			{confirmed: true, directed: true, test: "TestStart", met: "; it went first"},
			{confirmed: true, directed: true, test: "TestStart", met: "; it went first"}}},
		// The hook holds the goroutine's write, the caller waits for its
		// flag: the hook times out, and the handoff orders the writes.
		{name: "race-free", mode: Both, races: []reports.Race{handoff},
			want: []want{{note: "not seen in 1 run of " + module + "confirm/racefree TestHandoff; not seen in 2 directed runs"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			races := tc.races
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := Confirm(ctx, races, Options{Count: 1, Mode: tc.mode, Wait: time.Second, Roots: roots(t)})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 || res.Stopped != nil {
				t.Fatalf("errors %v, stopped %v", res.Errors, res.Stopped)
			}
			for i, r := range res.Races {
				w := tc.want[i]
				if r.Confirmed != w.confirmed || !strings.Contains(r.Note, w.note) {
					t.Errorf("race %s: confirmed %v, note %q; want %v, note with %q", r.ID, r.Confirmed, r.Note, w.confirmed, w.note)
					continue
				}
				if !r.Confirmed {
					if r.Witness != nil {
						t.Errorf("race %s: not confirmed, but a witness: %+v", r.ID, r.Witness)
					}
					continue
				}
				if r.Witness.Directed != w.directed || r.Witness.Test != w.test || !strings.Contains(r.Witness.Report, "WARNING: DATA RACE") {
					t.Errorf("race %s: witness %+v, want directed %v, test %q", r.ID, r.Witness, w.directed, w.test)
				}
				if !w.directed {
					continue
				}
				sched := r.Witness.Schedule
				met := len(sched) == w.vain+1 && strings.Contains(sched[w.vain], "arrived first") && strings.Contains(sched[w.vain], "went first") && strings.Contains(sched[w.vain], w.met)
				for _, line := range sched[:min(w.vain, len(sched))] {
					met = met && strings.Contains(line, "did not arrive")
				}
				if !met {
					t.Errorf("race %s: schedule %q, want %d waits in vain, then the hooks to meet", r.ID, sched, w.vain)
				}
			}
			if len(res.Misses) != tc.misses {
				t.Fatalf("misses %+v, want %d", res.Misses, tc.misses)
			}
			for _, m := range res.Misses {
				for _, a := range m.Accesses {
					if !strings.Contains(a, "racy.go:26") && !strings.Contains(a, "racy.go:29") {
						t.Errorf("miss at %s, want racy.go:26 and racy.go:29", a)
					}
				}
				if m.Witness.Test != "TestRename" {
					t.Errorf("miss seen in %q, want TestRename", m.Witness.Test)
				}
			}
		})
	}
}

// TestConfirmStopped: a context that has ended runs nothing, and every
// race says why.
func TestConfirmStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hit := staticRace(t, "confirm/racy", module+"confirm/racy.TestHit", "racy.go:12:3", "racy.go:15:2")
	res, err := Confirm(ctx, []reports.Race{hit}, Options{Count: 1, Roots: roots(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped == nil || res.Races[0].Confirmed || !strings.Contains(res.Races[0].Note, "not run: context canceled") {
		t.Fatalf("stopped %v, race %+v", res.Stopped, res.Races[0])
	}
}

// TestConfirmNoPosition: an access without a position (reports prints
// "-") cannot be matched, and says so rather than failing the command.
func TestConfirmNoPosition(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hit := staticRace(t, "confirm/racy", module+"confirm/racy.TestHit", "racy.go:12:3", "racy.go:15:2")
	hit.Accesses[1].Pos = "-"
	res, err := Confirm(ctx, []reports.Race{hit}, Options{Count: 1, Roots: roots(t)})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Races[0]; r.Confirmed || !strings.Contains(r.Note, `access 2 cannot be matched: position "-": want file:line:col`) {
		t.Fatalf("race %+v", r)
	}
}

func TestParsePosition(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Position
		err  bool
	}{
		{in: "/a/b.go:3:14", want: Position{File: "/a/b.go", Line: 3, Column: 14}},
		{in: "/a:b/c.go:3:1", want: Position{File: "/a:b/c.go", Line: 3, Column: 1}},
		{in: "-", err: true},
		{in: "/a/b.go:x:1", err: true},
	} {
		got, err := ParsePosition(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParsePosition(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// TestMissOrder: a race the detector prints with its accesses in either
// order (the later one first) is one miss, its sides in one order, a side
// without a frame last.
func TestMissOrder(t *testing.T) {
	access := func(file string, line int) DynamicAccess {
		return DynamicAccess{Op: "write", Stack: []Frame{{Func: "p.f", File: file, Line: line}}}
	}
	inScope := func(file string) bool { return file != "" }
	for _, tc := range []struct {
		name  string
		races [][2]DynamicAccess
		want  [2]string
	}{
		{name: "caller first", races: [][2]DynamicAccess{{access("/m/a.go", 18), access("/m/a.go", 15)}, {access("/m/a.go", 15), access("/m/a.go", 18)}},
			want: [2]string{"/m/a.go:15", "/m/a.go:18"}},
		{name: "no frame", races: [][2]DynamicAccess{{access("/m/a.go", 9), {Op: "read"}}, {{Op: "read"}, access("/m/a.go", 9)}},
			want: [2]string{"/m/a.go:9", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &confirmer{opts: Options{Scope: inScope}, res: &Result{}, misses: map[string]bool{}}
			for _, d := range tc.races {
				c.match(DynamicRace{Accesses: d}, Witness{})
			}
			if len(c.res.Misses) != 1 || c.res.Misses[0].Accesses != tc.want {
				t.Fatalf("misses %+v, want one at %q", c.res.Misses, tc.want)
			}
		})
	}
}
