package races_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// The programs of testdata/races, loaded together once and analyzed one
// program at a time at k = 1 (demand.Each), as chordgo check -demand=false
// does: each main package and each package's tests is its own program.
var (
	corpusOnce  sync.Once
	corpusRaces []races.Race
	corpusFacts *pointsto.Facts
	corpusErr   error
)

func analyzeCorpus(t *testing.T) ([]races.Race, *pointsto.Facts) {
	t.Helper()
	corpusOnce.Do(func() {
		corpusRaces, corpusFacts, corpusErr = analyzeEach()
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusRaces, corpusFacts
}

func analyzeEach() ([]races.Race, *pointsto.Facts, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, nil, err
	}
	a, err := analyzer(root, "./testdata/races/...")
	if err != nil {
		return nil, nil, err
	}
	var found []races.Race
	err = demand.Each(a, demand.Options{Once: true}, demand.EachOptions{}, func(r *demand.Result) error {
		found = append(found, r.Races.Races...)
		return nil
	})
	return found, a.Facts, err
}

// analyzer loads the packages of pattern, relative to dir, with their
// tests, and extracts their facts.
func analyzer(dir, pattern string) (*pointsto.Analyzer, error) {
	return pointsto.LoadAnalyzer(pointsto.Config{Patterns: []string{pattern}, Dir: dir, Tests: true})
}

var (
	wantRE = regexp.MustCompile(`// want "race"`)
	// notSelfRE marks a racy line that no two goroutines run at once on
	// one object (one goroutine runs it, or each on its own object): the
	// race detector can see it race with other lines only, so a race that
	// pairs it with itself is a false alarm.
	notSelfRE = regexp.MustCompile(`// want "race" \(not with itself\)`)
)

// wants returns the lines of dir's files that carry // want "race", as
// "file:line", each mapped to whether it races with itself too (no
// "(not with itself)" after it).
func wants(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for line := 1; sc.Scan(); line++ {
			if wantRE.MatchString(sc.Text()) {
				out[fmt.Sprintf("%s:%d", name, line)] = !notSelfRE.MatchString(sc.Text())
			}
		}
		fh.Close()
	}
	return out
}

// programDir returns the directory of testdata/races (root) that file is
// in: a program's packages may sit in directories below it.
func programDir(root, file string) string {
	rel, err := filepath.Rel(root, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.Dir(file)
	}
	return filepath.Join(root, strings.SplitN(filepath.ToSlash(rel), "/", 2)[0])
}

// knownWrong lists the programs whose outcome the analysis does not get
// right yet, and why. The test fails when one of them comes out right, so
// that the list only shrinks.
var knownWrong = map[string]string{
	"cond":                          "sync.Cond is not modeled",
	"cond_write_after_signal_racy":  "sync.Cond is not modeled: the race is found, and a false one with it",
	"context_cancel":                "context cancellation (close inside the context package) is not modeled",
	"ctor_two_objects":              "needs k = 2 at the constructor's allocation site (the demand loop, issue 5)",
	"demand_captured_callback":      "needs k = 2 at the closure's and its captured variable's sites (the demand loop: demand.TestDynamicCallers)",
	"demand_container":              "needs k = 2 at the map's and at its holder's site (the demand loop: demand.TestHolders)",
	"lock_retaken_other_field_racy": "evict's c.count-- is paired with itself: the loop's clean goroutines run one per cache, but c, the range's variable, points to both caches, so two instances are taken to reach the first cache",
	"naik_fig3_1_thrd_this":         "goroutine-disjoint objects are not proved (condmustnot)",
	"naik_fig4_1":                   "needs k > 1 for its sites (the demand loop, issue 5)",
	"study_lock_early_return_racy":  "the early return's r.misses++ is paired with itself: only the goroutine of key \"\" takes it, but the analysis does not follow key values, so every instance of the loop's goroutine is taken to reach it",
	"study_parallel_subtests_setup": "the part of a subtest before t.Parallel runs while its parent waits in t.Run, ordered with the other subtests, but mhp counts the whole test as parallel",
	"study_slice_append_clipped":    "append is taken to write the array its first argument may share (pointsto's move) whatever the capacity: a base clipped to its length (s[:n:n]) makes every append copy into a new array",
	"study_slice_passed_clone":      "the array slices.Clone's append allocates is one object for all the loop's clones, and append's copy into the array it just allocated is not left out as a fresh-object access (mhp.Handovers.BeforeHandover covers Alloc and MakeMap only), so it pairs with the goroutine's read of an earlier clone",
	"test_cleanup_racy":             "missed: a function a test hands t.Cleanup runs after the test returns, in the test runner (tRunner), which no root reaches without a TestMain; with one (m.Run), the race is missed too",
	"tests_own_callbacks":           "mhp does not order TestA's janitor send before TestA's <-done while TestB's janitor runs the same send on its own channel (with -run TestA it does)",
	"waitgroup_made_in_loop_racy":   "x = 1 is paired with itself: only the loop's first goroutine (i == 0) writes, but the analysis does not follow i, so every instance is taken to write",
}

// TestWant checks every program of testdata/races: each line with
// // want "race" is one side of a reported race, and each reported race
// has both sides on such lines.
func TestWant(t *testing.T) {
	found, f := analyzeCorpus(t)
	root, _ := filepath.Abs("../testdata/races")
	got := map[string]map[string][]string{} // program dir -> line -> races
	withItself := map[string]bool{}         // lines a race pairs with themselves
	for _, race := range found {
		var pos [2]string
		for k, a := range race.Accesses {
			p := f.AccessPos(a.E)
			pos[k] = fmt.Sprintf("%s:%d", p.Filename, p.Line)
		}
		withItself[pos[0]] = withItself[pos[0]] || pos[0] == pos[1]
		for k := range 2 {
			dir := programDir(root, pos[k])
			if got[dir] == nil {
				got[dir] = map[string][]string{}
			}
			got[dir][pos[k]] = append(got[dir][pos[k]], fmt.Sprintf("with %s", filepath.Base(pos[1-k])))
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*"))
	sort.Strings(dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := wants(t, dir)
			var missing, extra []string
			for line := range want {
				if got[dir][line] == nil {
					missing = append(missing, filepath.Base(line))
				}
			}
			for line, with := range got[dir] {
				if self, ok := want[line]; !ok {
					extra = append(extra, filepath.Base(line)+" ("+strings.Join(with, ", ")+")")
				} else if !self && withItself[line] {
					extra = append(extra, filepath.Base(line)+" (with itself, marked not with itself)")
				}
			}
			slices.Sort(missing)
			slices.Sort(extra)
			report := t.Errorf
			if why, ok := knownWrong[filepath.Base(dir)]; ok {
				if len(missing)+len(extra) == 0 {
					t.Fatalf("comes out right now; remove it from knownWrong (%s)", why)
				}
				t.Logf("known to be wrong: %s", why)
				report = t.Logf
			}
			if len(missing) > 0 {
				report("no race reported at %s", strings.Join(missing, " "))
			}
			if len(extra) > 0 {
				report("unexpected race at %s", strings.Join(extra, " "))
			}
		})
	}
}
