package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
)

// sharedRace is two test packages, two programs, that both call a library
// function with a race inside it; b's test has a race of its own.
const sharedRace = "../testdata/shards"

// sharedRacePath is sharedRace's import path.
const sharedRacePath = "github.com/chordgo/chordgo/testdata/shards"

// writeFiles writes a module "prog" of the given files into a new
// directory.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module prog\n\ngo 1.22\n"
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// programReports analyzes each program of a in its own run and returns
// their reports in program order.
func programReports(t *testing.T, a *pointsto.Analyzer, opts Options) []*Report {
	t.Helper()
	byProgram := map[int]*Report{}
	err := demand.Each(a, demand.Options{Once: true}, demand.EachOptions{}, func(dr *demand.Result) error {
		rep := Build(dr.PointsTo, dr.Races, opts)
		rep.Stats.Demand = DemandStats(dr, a.Facts)
		byProgram[dr.Program] = rep
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var reps []*Report
	for _, n := range a.Facts.Prog.Programs() {
		reps = append(reps, byProgram[n])
	}
	return reps
}

func writeJSON(t *testing.T, rep *Report) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestMerge checks the report of programs analyzed one at a time: the
// library's race, found in both programs, is one race with the roots of
// both; b's own race is the other location; the first race of each
// location has its paths, the others none (MaxPaths 1).
func TestMerge(t *testing.T) {
	a := analyzerOf(t, pointsto.Config{Patterns: []string{"./..."}, Dir: sharedRace, Tests: true})
	reps := programReports(t, a, Options{MaxPaths: 1})
	if len(reps) != 2 {
		t.Fatalf("%d reports, want one per program (2)", len(reps))
	}
	perProgram := reps[0].Stats.Pairs.Ultimate + reps[1].Stats.Pairs.Ultimate
	rep, err := Merge(reps, Options{MaxPaths: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Races []Race
		Stats Stats
	}
	if err := json.Unmarshal(writeJSON(t, rep), &got); err != nil {
		t.Fatal(err)
	}
	// Per location (file of its accesses): its races' roots.
	byFile := map[string][][]string{}
	for i, race := range got.Races {
		first := i == 0 || got.Races[i-1].Location.ID != race.Location.ID
		var roots []string
		for _, acc := range race.Accesses {
			if first != (len(acc.Path) > 0) {
				t.Errorf("race %s at %s: path %v; want one for the first race of its location only (MaxPaths 1)", race.ID, acc.Pos, acc.Path)
			}
			roots = append(roots, acc.Roots...)
		}
		slices.Sort(roots)
		pos := race.Accesses[0].Pos
		file, _, _ := strings.Cut(filepath.Base(filepath.Dir(pos))+"/"+filepath.Base(pos), ":")
		byFile[file] = append(byFile[file], slices.Compact(roots))
	}
	// lib.go's n++ twice: write/write, write/read, read/write.
	want := map[string][][]string{
		"lib/lib.go":  slices.Repeat([][]string{{sharedRacePath + "/a.TestA", sharedRacePath + "/b.TestB"}}, 3),
		"b/b_test.go": {{sharedRacePath + "/b.TestB"}},
	}
	if !reflect.DeepEqual(byFile, want) {
		t.Errorf("roots of the races by location %v, want %v", byFile, want)
	}
	s := got.Stats
	if s.Locations != 2 || s.Pairs.Ultimate != 4 || perProgram != 7 || s.Demand == nil || s.Demand.Iterations != 2 {
		t.Errorf("stats: %d locations, %d pairs (%d in the programs' reports), demand %+v; want 2, 4 (7), two iterations", s.Locations, s.Pairs.Ultimate, perProgram, s.Demand)
	}
	var names []string
	for _, p := range s.Programs {
		names = append(names, p.Name)
	}
	if want := []string{sharedRacePath + "/a (tests)", sharedRacePath + "/b (tests)"}; !slices.Equal(names, want) {
		t.Errorf("programs %q, want %q", names, want)
	}
}

// TestMergeShards checks that Merge does not depend on how the programs
// are grouped or ordered: the reports of single programs, written as JSON
// and read back (chordgo check -shard, chordgo merge), in either order,
// merge into the bytes of the in-process merge.
func TestMergeShards(t *testing.T) {
	a := analyzerOf(t, pointsto.Config{Patterns: []string{"./..."}, Dir: sharedRace, Tests: true})
	opts := Options{MaxPaths: 1}
	whole, err := Merge(programReports(t, a, opts), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := writeJSON(t, whole)
	var shards [][]byte
	for _, rep := range programReports(t, a, opts) {
		shards = append(shards, writeJSON(t, rep))
	}
	for _, tc := range []struct {
		name  string
		order []int
	}{{"in order", []int{0, 1}}, {"reversed", []int{1, 0}}} {
		t.Run(tc.name, func(t *testing.T) {
			var reps []*Report
			for _, i := range tc.order {
				rep, err := ReadJSON(bytes.NewReader(shards[i]))
				if err != nil {
					t.Fatal(err)
				}
				reps = append(reps, rep)
			}
			merged, err := Merge(reps, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := writeJSON(t, merged); !bytes.Equal(got, want) {
				t.Errorf("merged shards:\n%s\nwant the whole report:\n%s", got, want)
			}
		})
	}
	// The library's races are in both programs: a baseline with them
	// takes them out of each shard, and the merge counts them once.
	t.Run("filtered in two shards", func(t *testing.T) {
		bl := Baseline{}
		for _, g := range whole.groups {
			for _, e := range g.races {
				if strings.Contains(e.desc.Accesses[0].Pos, "lib.go") {
					bl[e.desc.ID] = true
				}
			}
		}
		if len(bl) != 3 {
			t.Fatalf("%d races in lib.go, want 3", len(bl))
		}
		filtered, err := Merge(programReports(t, a, opts), opts)
		if err != nil {
			t.Fatal(err)
		}
		filtered.OmitBaseline(bl)
		want := writeJSON(t, filtered)
		shardOpts := opts
		shardOpts.Shard = true
		var reps []*Report
		for _, rep := range programReports(t, a, shardOpts) {
			rep.OmitBaseline(bl)
			back, err := ReadJSON(bytes.NewReader(writeJSON(t, rep)))
			if err != nil {
				t.Fatal(err)
			}
			reps = append(reps, back)
		}
		merged, err := Merge(reps, opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := writeJSON(t, merged); !bytes.Equal(got, want) {
			t.Errorf("merged shards:\n%s\nwant the whole report:\n%s", got, want)
		}
		if n := merged.Stats.Filtered.Baseline; n != 3 {
			t.Errorf("%d races in the baseline, want 3 (each of the library's races once)", n)
		}
	})
	t.Run("overlapping", func(t *testing.T) {
		var reps []*Report
		for range 2 {
			rep, err := ReadJSON(bytes.NewReader(shards[0]))
			if err != nil {
				t.Fatal(err)
			}
			reps = append(reps, rep)
		}
		if _, err := Merge(reps, opts); err == nil || !strings.Contains(err.Error(), sharedRacePath+"/a (tests) is in two of the reports") {
			t.Errorf("merging a program twice: %v, want an error naming it", err)
		}
	})
}

// TestReadJSONErrors checks that what is not a report of chordgo check
// -json is refused with a reason.
func TestReadJSONErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not JSON", "races:", "invalid character"},
		{"no stats", `{"races": []}`, "stats.programs is missing"},
		{"no programs", `{"races": [{"id": "1", "location": {"id": "2", "kind": "global", "desc": "g"}, "accesses": [{"pos": "-"}, {"pos": "-"}]}], "stats": {"pairs": {}, "reported": 0, "filtered": {}, "locations": 0, "sizes": {}}}`, "stats.programs is missing"},
		{"unknown field", `{"races": [], "rcaes": []}`, "unknown field"},
		{"bad position", `{"races": [{"id": "1", "location": {"id": "2", "kind": "global", "desc": "g"}, "accesses": [{"pos": "main.go:x:1"}, {"pos": "-"}]}], "stats": {"sizes": {}, "programs": [{"name": "p (main)"}]}}`, "position \"main.go:x:1\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadJSON: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestMergeOneRaceTwoLocations checks a race of two programs on objects
// of different sites: the library's two accesses are one race (one id),
// on the object each test allocates. The merge shows it once, under the
// location of the copy it chose, whatever the order of the reports.
func TestMergeOneRaceTwoLocations(t *testing.T) {
	lib := `package lib

// Bump's goroutine and its caller both write *n.
func Bump(n *int) {
	done := make(chan bool)
	go func() {
		*n++
		done <- true
	}()
	*n++
	<-done
}
`
	test := func(pkg, name string) string {
		return "package " + pkg + "\n\nimport (\n\t\"testing\"\n\n\t\"prog/lib\"\n)\n\nfunc " + name + "(t *testing.T) { lib.Bump(new(int)) }\n"
	}
	dir := writeFiles(t, map[string]string{"lib/lib.go": lib, "a/a_test.go": test("a", "TestA"), "b/b_test.go": test("b", "TestB")})
	a := analyzerOf(t, pointsto.Config{Patterns: []string{"./..."}, Dir: dir, Tests: true})
	opts := Options{}
	var want []byte
	for _, reverse := range []bool{false, true} {
		reps := programReports(t, a, opts)
		if reverse {
			slices.Reverse(reps)
		}
		rep, err := Merge(reps, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := writeJSON(t, rep)
		if want == nil {
			want = got
			if rep.Stats.Locations != 1 || rep.Stats.Reported != 3 {
				t.Errorf("%d locations, %d races; want 1 and 3 (the library's, each once):\n%s", rep.Stats.Locations, rep.Stats.Reported, got)
			}
		} else if !bytes.Equal(got, want) {
			t.Errorf("reports merged in reverse:\n%s\nwant:\n%s", got, want)
		}
	}
}
