package realcode

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for a child that Execute must
// end: REALCODE_CHILD=sleep waits a minute, =alloc holds 256 MB resident.
func TestMain(m *testing.M) {
	switch os.Getenv("REALCODE_CHILD") {
	case "sleep":
		time.Sleep(time.Minute)
		os.Exit(0)
	case "alloc":
		b := make([]byte, 256<<20)
		for i := range b {
			b[i] = 1
		}
		time.Sleep(time.Minute)
		os.Exit(int(b[len(b)/2]))
	case "exit3":
		os.Stdout.WriteString("out")
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func TestExecute(t *testing.T) {
	tests := []struct {
		child, killed string
		exit          int
	}{
		{child: "exit3", exit: 3},
		{child: "sleep", killed: "timeout 300ms", exit: -1},
		{child: "alloc", killed: "memory ", exit: -1},
	}
	for _, tt := range tests {
		t.Run(tt.child, func(t *testing.T) {
			lim := Limits{Timeout: 300 * time.Millisecond, MaxRSS: 100 << 20, Poll: 10 * time.Millisecond}
			if tt.child == "alloc" {
				lim.Timeout = time.Minute
			}
			r, err := Execute(lim, t.TempDir(), append(os.Environ(), "REALCODE_CHILD="+tt.child), os.Args[0])
			if err != nil {
				t.Fatal(err)
			}
			if r.Exit != tt.exit || !strings.HasPrefix(r.Killed, tt.killed) || (tt.killed == "") != r.Finished() {
				t.Errorf("exit %d, killed %q; want %d, %q", r.Exit, r.Killed, tt.exit, tt.killed)
			}
			if r.PeakRSS <= 0 || r.Wall <= 0 {
				t.Errorf("peak RSS %d, wall %v: want both positive", r.PeakRSS, r.Wall)
			}
			if tt.child == "exit3" && string(r.Stdout) != "out" {
				t.Errorf("stdout %q, want \"out\"", r.Stdout)
			}
		})
	}
}

func TestParseReport(t *testing.T) {
	const report = `{"races": [
	  {"location": {"kind": "field", "field": "(m.T).f", "object": "/w/m/a.go:3:9", "type": "m.T", "desc": "d"},
	   "accesses": [{"pos": "/w/m/a.go:5:2", "op": "write"}, {"pos": "/w/m/b.go:7:3", "op": "read"}]},
	  {"location": {"kind": "field", "field": "(m.T).f", "object": "/w/m/a.go:3:9", "type": "m.T", "desc": "d"},
	   "accesses": [{"pos": "/w/m/a.go:5:2", "op": "write"}, {"pos": "/w/m/a.go:5:2", "op": "write"}]},
	  {"location": {"kind": "global", "global": "m.g", "desc": "d"},
	   "accesses": [{"pos": "/mc/dep@v1/c.go:1:1", "op": "write"}, {"pos": "-", "op": "read"}]},
	  {"location": {"id": "L7", "kind": "map", "object": "/w/m/a.go:9:9", "desc": "d"},
	   "accesses": [{"pos": "/w/m/a.go:10:2", "op": "write"}, {"pos": "/w/m/a.go:11:2", "op": "read"}]},
	  {"location": {"id": "L7", "kind": "map", "object": "/w/m/a.go:9:9", "desc": "d"},
	   "accesses": [{"pos": "/w/m/a.go:12:2", "op": "write"}, {"pos": "/w/m/a.go:12:2", "op": "write"}]}
	 ],
	 "errors": ["m/broken: no Go files"],
	 "stats": {"seconds": {"load": 1.5}, "demand": {"iterations": 3}}}`
	o, err := ParseReport([]byte(report), Prefixes{{"/w/m", ""}, {"/mc", "$GOMODCACHE/"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Location{
		{Key: "L7", Where: "map @a.go:9:9", Pairs: []string{"write a.go:10:2 / read a.go:11:2", "write a.go:12:2 / write a.go:12:2"}},
		{Key: "field (m.T).f [m.T] @a.go:3:9", Where: "field (m.T).f [m.T] @a.go:3:9", Pairs: []string{"write a.go:5:2 / read b.go:7:3", "write a.go:5:2 / write a.go:5:2"}},
		{Key: "global m.g", Where: "global m.g", Pairs: []string{"write $GOMODCACHE/dep@v1/c.go:1:1 / read -"}},
	}
	if o.Races != 5 || o.Demand != 3 || len(o.Errors) != 1 || o.Seconds["load"] != 1.5 {
		t.Errorf("races %d, demand %d, errors %v, seconds %v; want 5, 3, one error, load 1.5", o.Races, o.Demand, o.Errors, o.Seconds)
	}
	if !slices.EqualFunc(o.Locations, want, func(a, b Location) bool {
		return a.Key == b.Key && a.Where == b.Where && slices.Equal(a.Pairs, b.Pairs)
	}) {
		t.Errorf("locations:\n%+v\nwant\n%+v", o.Locations, want)
	}
	if _, err := ParseReport([]byte("chordgo: panic"), nil); err == nil {
		t.Error("ParseReport accepted output that is not JSON")
	}
}

func TestReadTriage(t *testing.T) {
	tests := []struct {
		name, file, err string
		want            []Verdict
	}{
		{
			name: "good",
			file: "# comment\n\nm\t1a\tfield (m.T).f\tfalse\t3\tlock of the caller\nm\t2b\tglobal m.g\ttrue\ttestdata/x_test.go\t\n",
			want: []Verdict{
				{Module: "m", Key: "1a", Where: "field (m.T).f", Class: 3, Note: "lock of the caller", Line: 3},
				{Module: "m", Key: "2b", Where: "global m.g", True: true, Witness: "testdata/x_test.go", Line: 4},
			},
		},
		{name: "fields", file: "m\tk\tw\tfalse\t3\n", err: "t.tsv:1: 5 tab-separated fields"},
		{name: "where", file: "m\tk\t\tfalse\t3\tx\n", err: "t.tsv:1: empty module, key or where"},
		{name: "class", file: "m\tk\tw\tfalse\t11\tx\n", err: "t.tsv:1: class \"11\""},
		{name: "fact", file: "m\tk\tw\tfalse\t2\t\n", err: "t.tsv:1: a false location needs the missing fact"},
		{name: "witness", file: "m\tk\tw\ttrue\t\t\n", err: "t.tsv:1: a true race needs a witness"},
		{name: "verdict", file: "m\tk\tw\tmaybe\t1\tx\n", err: "t.tsv:1: verdict \"maybe\""},
		{name: "duplicate", file: "m\tk\tw\tfalse\t1\tx\n#\nm\tk\tv\tfalse\t2\ty\n", err: "t.tsv:3: second verdict for m k (first on line 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadTriage(strings.NewReader(tt.file), "t.tsv")
			if wantedError(t, err, tt.err) {
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	vs := []Verdict{
		{Module: "m", Key: "a", Where: "a.go:1", True: true, Witness: "w", Line: 1},
		{Module: "m", Key: "b", Where: "b.go:1", Class: 2, Note: "x", Line: 2},
		{Module: "m", Key: "gone", Where: "g.go:1", Class: 4, Note: "y", Line: 3},
		{Module: "other", Key: "c", Where: "c.go:1", Class: 1, Note: "z", Line: 4},
	}
	locs := []Location{{Key: "a", Where: "a.go:1"}, {Key: "b", Where: "b.go:2"}, {Key: "c", Where: "c.go:1"}}
	j := Judge("m", locs, vs)
	if j.Reported != 3 || j.True != 1 || j.False != 1 || j.ByClass[2] != 1 {
		t.Errorf("reported %d, true %d, false %d, by class %v; want 3, 1, 1, {2: 1}", j.Reported, j.True, j.False, j.ByClass)
	}
	if len(j.Missing) != 1 || j.Missing[0].Key != "c" {
		t.Errorf("missing %v, want c (a verdict of another module does not count)", j.Missing)
	}
	if len(j.Stale) != 1 || j.Stale[0].Key != "gone" {
		t.Errorf("stale %v, want gone", j.Stale)
	}
	if len(j.Moved) != 1 || j.Moved[0].Verdict.Key != "b" || j.Moved[0].Where != "b.go:2" {
		t.Errorf("moved %v, want b now at b.go:2", j.Moved)
	}
	if p := j.Precision(); p != 1.0/3 {
		t.Errorf("precision %v, want 1/3", p)
	}
	if p := Judge("m", nil, nil).Precision(); p != 1 {
		t.Errorf("precision with nothing reported %v, want 1", p)
	}
}

func TestParseVmRSS(t *testing.T) {
	got, err := parseVmRSS([]byte("Name:\tchordgo\nVmPeak:\t  999 kB\nVmRSS:\t  1234 kB\n"))
	if err != nil || got != 1234*1024 {
		t.Errorf("parseVmRSS = %d, %v; want %d", got, err, 1234*1024)
	}
	for _, bad := range []string{"Name:\tx\n", "VmRSS:\t12 MB\n", "VmRSS:\tx kB\n"} {
		if _, err := parseVmRSS([]byte(bad)); err == nil {
			t.Errorf("parseVmRSS(%q) gave no error", bad)
		}
	}
}

// TestFetch copies a checkout (no download): version control left out,
// the ModFile in place of go.mod, and an error naming the module when the
// ModFile is missing.
func TestFetch(t *testing.T) {
	repo := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.21\n\nrequire example.com/notfetched v1.0.0\n",
		"go_test.mod": "module example.com/m\n\ngo 1.21\n",
		"go_test.sum": "",
		"a.go":        "package m\n",
		".git/HEAD":   "ref: refs/heads/main\n",
	} {
		path := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		modFile, err string
	}{
		{modFile: "go_test.mod"},
		{modFile: "missing.mod", err: "example.com/m@checkout: rename "},
	}
	for _, tt := range tests {
		t.Run(tt.modFile, func(t *testing.T) {
			work := t.TempDir()
			m := Module{Path: "example.com/m", Version: Checkout, ModFile: tt.modFile}
			root, err := Fetch(context.Background(), m, repo, filepath.Join(work, "modcache"), filepath.Join(work, "src"))
			if wantedError(t, err, tt.err) {
				return
			}
			if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || string(mod) != "module example.com/m\n\ngo 1.21\n" {
				t.Errorf("go.mod %q, %v: want go_test.mod's", mod, err)
			}
			for name, want := range map[string]bool{"a.go": true, "go.sum": true, "go_test.mod": false, ".git": false} {
				if _, err := os.Stat(filepath.Join(root, name)); (err == nil) != want {
					t.Errorf("%s in the copy: %v, want %v", name, err == nil, want)
				}
			}
		})
	}
}

// TestTriageFile checks triage.tsv without running the corpus: it parses,
// every verdict names a module of the corpus, and every true verdict's
// witness is a TestWitness function in a file under testdata/witness of
// its module, where TestWitnesses finds it.
func TestTriageFile(t *testing.T) {
	f, err := os.Open("triage.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vs, err := ReadTriage(f, "triage.tsv")
	if err != nil {
		t.Fatal(err)
	}
	inCorpus := map[string]bool{}
	for _, m := range Corpus {
		inCorpus[m.Path] = true
	}
	for _, v := range vs {
		if !inCorpus[v.Module] {
			t.Errorf("triage.tsv:%d: module %s is not in the corpus", v.Line, v.Module)
		}
		if !v.True {
			continue
		}
		file, name, ok := strings.Cut(v.Witness, ":")
		dir := "testdata/witness/" + v.Module + "/"
		if !ok || !strings.HasPrefix(file, dir) || !strings.HasPrefix(name, "TestWitness") {
			t.Errorf("triage.tsv:%d: witness %q: want %sFILE:TestWitnessNAME", v.Line, v.Witness, dir)
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("triage.tsv:%d: %v", v.Line, err)
		} else if !strings.Contains(string(data), "\nfunc "+name+"(t *testing.T)") {
			t.Errorf("triage.tsv:%d: %s has no func %s(t *testing.T)", v.Line, file, name)
		}
	}
}

// wantedError fails t unless err is as wanted: nil for an empty want, else
// an error starting with want. It says whether an error was wanted, which
// ends the case.
func wantedError(t *testing.T, err error, want string) bool {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return false
	}
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one starting with %q", err, want)
	}
	return true
}
