package racefree

import (
	"context"
	"flag"
	"fmt"
	"go/build"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chordgo/chordgo/confirm"
	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/internal/overlay"
	"github.com/chordgo/chordgo/internal/racesuite"
	"github.com/chordgo/chordgo/pointsto"
)

// full makes TestNoRaceLost compare every program of testdata/races (not a
// sample of the racy ones) and Go's race suite, which takes minutes (its
// analysis with the demand loop, two builds): .ci/run runs
// go test ./racefree -run TestNoRaceLost -racefree.full.
var full = flag.Bool("racefree.full", false, "TestNoRaceLost: every testdata/races program, and Go's race suite")

// sampleEvery and sampleMax: by default TestNoRaceLost analyzes every
// sampleEvery-th racy program of testdata/races (in name order) and runs
// the first sampleMax of them that the overlay changes.
const (
	sampleEvery = 4
	sampleMax   = 5
)

// reruns is how many more runs with the overlay a race the run without it
// reported gets before it counts as lost (a test: the tests that reported
// them, -test.count reruns): the race detector sees a race only when the
// schedule makes it, and prints one race per memory location, so which of
// three writes that race with one another it pairs varies from run to
// run (the race suite's TestRaceRWMutexMultipleReaders).
const reruns = 20

// knownMissed are the programs of testdata/races whose race chordgo
// misses (races.TestWant's knownWrong): an access of it is taken to be
// race-free, so the overlay drops its check and the race is lost. The
// test expects that loss, and fails when the race is found with the
// overlay, so that the entry goes when chordgo is fixed.
var knownMissed = map[string]string{}

// TestNoRaceLost runs programs under the race detector without and with
// the overlay chordgo racefree writes for them, and checks that every race
// (the pair of the two accesses' file:line) reported without is reported
// with, at the same lines or, where span redundancy removed the check of
// one of its accesses, at an access that covers it (span.go). A program the overlay does not change is built the same both ways
// and is not run.
func TestNoRaceLost(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes programs and runs them with -race")
	}
	t.Run("testdata/races", func(t *testing.T) {
		root, err := filepath.Abs("../testdata/races")
		if err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		var patterns []string
		racy := 0
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			// "/...": a directory may hold a program's packages below it
			// (programs_share_lib).
			if strings.HasSuffix(e.Name(), "_racy") {
				racy++
				if *full || racy%sampleEvery == 1 {
					patterns = append(patterns, "./"+e.Name()+"/...")
				}
			} else if *full {
				patterns = append(patterns, "./"+e.Name()+"/...")
			}
		}
		funcs, overlayFile := planAndWrite(t, root, patterns, nil)
		changed := changedDirs(t, root, overlayFile)
		t.Logf("%d programs analyzed, %d marked functions, %d programs changed by the overlay", len(patterns), marked(funcs), len(changed))
		if !*full && len(changed) > sampleMax {
			changed = changed[:sampleMax]
		}
		for _, dir := range changed {
			t.Run(filepath.Base(dir), func(t *testing.T) {
				_, test := program(t, dir)
				var args []string
				if test {
					args = []string{"-test.v"}
				}
				compare(t, dir, overlayFile, args, test, knownMissed[filepath.Base(dir)], coveredBy(funcs))
			})
		}
	})
	t.Run("racesuite", func(t *testing.T) {
		if !*full {
			t.Skip("takes minutes: run with -racefree.full, as .ci/run does")
		}
		suite, err := racesuite.Prepare(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		funcs, overlayFile := planAndWrite(t, suite.Dir, []string{"."}, []string{"race"})
		t.Logf("%d marked functions of %d", marked(funcs), len(funcs))
		if marked(funcs) == 0 {
			t.Fatal("no function of the race suite marked: the comparison would test nothing")
		}
		compare(t, suite.Dir, overlayFile, []string{"-test.v", "-test.timeout", "5m"}, true, "", coveredBy(funcs))
	})
}

func marked(funcs []Function) int {
	n := 0
	for _, f := range funcs {
		if f.Marked {
			n++
		}
	}
	return n
}

// planAndWrite analyzes the packages as chordgo racefree does and writes
// their overlay into a temporary directory.
func planAndWrite(t *testing.T, dir string, patterns, tags []string) ([]Function, string) {
	t.Helper()
	dr, err := demand.Analyze(pointsto.Config{Dir: dir, Patterns: patterns, Tests: true, Tags: tags}, demand.Options{})
	if err != nil {
		t.Fatal(err)
	}
	unreplaceable, err := overlay.Unreplaceable()
	if err != nil {
		t.Fatal(err)
	}
	funcs := planOne(dr, func(f string) bool { return !unreplaceable(f) })
	overlayFile := filepath.Join(t.TempDir(), "overlay.json")
	if err := Write(overlayFile, funcs); err != nil {
		t.Fatal(err)
	}
	return funcs, overlayFile
}

// changedDirs returns the directories of the programs the overlay
// changes: those of the files it replaces, and, where that is a library
// (a package that is neither main nor has tests, as
// programs_share_lib/lib), the directories of testdata/races's programs
// beside it (the packages under the same directory of root) that have a
// main or tests.
func changedDirs(t *testing.T, root, overlayFile string) []string {
	t.Helper()
	dirs := map[string]bool{}
	for file := range readOverlay(t, overlayFile) {
		dir := filepath.Dir(file)
		if ok, _ := program(t, dir); ok {
			dirs[dir] = true
			continue
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("%s: a library outside %s", dir, root)
		}
		top := filepath.Join(root, strings.Split(rel, string(filepath.Separator))[0])
		err = filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if ok, _ := program(t, path); ok {
				dirs[path] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return slices.Sorted(maps.Keys(dirs))
}

// program says whether the package in dir is a program of its own (a
// main package, or a package with tests) and whether its tests are that
// program.
func program(t *testing.T, dir string) (ok, test bool) {
	t.Helper()
	pkg, err := build.ImportDir(dir, 0)
	if _, noGo := err.(*build.NoGoError); err != nil && !noGo {
		t.Fatalf("%s: %v", dir, err)
	}
	if pkg.Name == "main" && len(pkg.GoFiles) > 0 {
		return true, false
	}
	return len(pkg.TestGoFiles)+len(pkg.XTestGoFiles) > 0, true
}

// coveredBy maps the position (file:line) of each load or store whose
// check span redundancy removes to those of the checked accesses that
// cover it (Function.Covers).
func coveredBy(funcs []Function) map[string][]string {
	out := map[string][]string{}
	for _, f := range funcs {
		for _, c := range f.Covers {
			at := fmt.Sprintf("%s:%d", c.At.Filename, c.At.Line)
			for _, by := range c.By {
				if b := fmt.Sprintf("%s:%d", by.Filename, by.Line); !slices.Contains(out[at], b) {
					out[at] = append(out[at], b)
				}
			}
		}
	}
	return out
}

// foundIn says whether races has pair, or the pair of the same two
// accesses where one whose check span redundancy removed (covered) is
// replaced by an access that covers it: the race detector then reports
// the race at the covering access (span.go).
func foundIn(races map[string]string, pair string, covered map[string][]string) bool {
	a, b, _ := strings.Cut(pair, " ")
	for _, a1 := range append([]string{a}, covered[a]...) {
		for _, b1 := range append([]string{b}, covered[b]...) {
			p := []string{a1, b1}
			slices.Sort(p)
			if _, ok := races[p[0]+" "+p[1]]; ok {
				return true
			}
		}
	}
	return false
}

// compare builds the program in dir with -race, without and with the
// overlay, runs both, and fails for each race the first reports and the
// second does not (at the same positions, or at an access that covers
// one, covered), after reruns more runs of the second; if missed (why
// chordgo misses the program's race) is not "", it fails when no race is
// lost instead. It returns the races reported with the overlay.
func compare(t *testing.T, dir, overlayFile string, args []string, test bool, missed string, covered map[string][]string) map[string]string {
	t.Helper()
	base := buildRace(t, dir, "", test)
	with := buildRace(t, dir, overlayFile, test)
	want := runRace(t, base, args)
	got := runRace(t, with, args)
	t.Logf("%d races without the overlay, %d with", len(want), len(got))
	// lost returns the races want has and got does not, and the tests
	// that printed them ("" for a race printed outside any test).
	lost := func() (pairs, tests []string) {
		for pair, test := range want {
			if !foundIn(got, pair, covered) {
				pairs = append(pairs, pair)
				if !slices.Contains(tests, test) {
					tests = append(tests, test)
				}
			}
		}
		slices.Sort(pairs)
		slices.Sort(tests)
		return pairs, tests
	}
	if pairs, tests := lost(); len(pairs) > 0 && test {
		again := append(slices.Clone(args), "-test.count", fmt.Sprint(reruns))
		if !slices.Contains(tests, "") {
			again = append(again, "-test.run", "^("+strings.Join(tests, "|")+")$")
		}
		maps.Copy(got, runRace(t, with, again))
	} else if len(pairs) > 0 {
		for i := 0; i < reruns && len(pairs) > 0; i++ {
			maps.Copy(got, runRace(t, with, args))
			pairs, _ = lost()
		}
	}
	pairs, _ := lost()
	for pair := range want {
		if _, ok := got[pair]; !ok && !slices.Contains(pairs, pair) {
			t.Logf("race %s found at an access that covers one of its accesses", pair)
		}
	}
	if missed != "" {
		if len(want) > 0 && len(pairs) == 0 {
			t.Errorf("no race lost, but the program is in knownMissed (%s): remove it", missed)
		}
		t.Logf("lost as expected, chordgo missing the race (%s): %v", missed, pairs)
		return got
	}
	for _, pair := range pairs {
		t.Errorf("race %s (%s) reported without the overlay, not with it in %d more runs", pair, want[pair], reruns)
	}
	return got
}

func buildRace(t *testing.T, dir, overlayFile string, test bool) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prog")
	args := []string{"build", "-race", "-o", bin}
	if test {
		args = []string{"test", "-race", "-c", "-vet=off", "-o", bin}
	}
	if overlayFile != "" {
		args = append(args, "-overlay", overlayFile)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return bin
}

// runRace runs a -race binary and returns its races, each as the sorted
// pair of its accesses' positions (file:line), with the test that printed
// it.
func runRace(t *testing.T, bin string, args []string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "GORACE=halt_on_error=0")
	out, _ := cmd.CombinedOutput() // racy programs and failing tests exit non-zero
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish in 5 minutes:\n%s", bin, out)
	}
	races, err := confirm.Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string]string{}
	for _, r := range races {
		var pos [2]string
		for k, a := range r.Accesses {
			f, ok := a.Top()
			if !ok && len(a.Stack) > 0 {
				f = a.Stack[0]
			}
			pos[k] = f.Position()
		}
		slices.Sort(pos[:])
		pairs[pos[0]+" "+pos[1]] = r.Test
	}
	return pairs
}
