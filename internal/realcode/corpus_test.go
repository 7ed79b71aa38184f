//go:build realcode

package realcode

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var (
	demandFlag    = flag.Bool("demand", true, "run chordgo check with the demand loop (false: -demand=false)")
	moduleTimeout = flag.Duration("module-timeout", 10*time.Minute, "kill a module's run after this wall time; chordgo's own -timeout is 90% of it")
	maxRSSGB      = flag.Float64("max-rss-gb", 6, "kill a module's run when its resident memory passes this many GB; chordgo's own -mem is 70% of it")
	modulesFlag   = flag.String("modules", "", "run only the modules whose path matches this regexp")
	outFlag       = flag.String("out", "", "write each module's JSON report and stderr, the results table (results.md) and the locations without a verdict (missing.tsv, a triage skeleton) to this directory")
	triageFlag    = flag.String("triage", "triage.tsv", "the triage file")
)

// TestCorpus runs chordgo check -json ./... on every module of the corpus,
// one after another, prints a table, and fails on a reported location
// that has no verdict in the triage file.
func TestCorpus(t *testing.T) {
	f, err := os.Open(*triageFlag)
	if err != nil {
		t.Fatal(err)
	}
	verdicts, err := ReadTriage(f, *triageFlag)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	only, err := regexp.Compile(*modulesFlag)
	if err != nil {
		t.Fatal(err)
	}
	repoRoot, work, modcache := workDirs(t)
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	chordgo := filepath.Join(work, "chordgo")
	build := exec.Command("go", "build", "-o", chordgo, "./cmd/chordgo")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building chordgo: %v\n%s", err, out)
	}
	if *outFlag != "" {
		if err := os.MkdirAll(*outFlag, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// chordgo's budgets end a long run with the races of its last
	// completed one (or exit 3); the harness's limits are the backstop.
	args := []string{"check", "-json", "-stats",
		fmt.Sprintf("-timeout=%v", *moduleTimeout*9/10),
		fmt.Sprintf("-mem=%dMiB", int64(*maxRSSGB*0.7*(1<<10)))}
	if !*demandFlag {
		args = append(args, "-demand=false")
	}
	args = append(args, "./...")
	lim := Limits{Timeout: *moduleTimeout, MaxRSS: int64(*maxRSSGB * (1 << 30))}

	var table, missing strings.Builder
	fmt.Fprintf(&table, "chordgo %s (module timeout %v, memory cap %.1f GB)\n\n", strings.Join(args, " "), lim.Timeout, *maxRSSGB)
	fmt.Fprintln(&table, "| module | status | wall | CPU | peak RSS | races | locations | true | false | no verdict | precision |")
	fmt.Fprintln(&table, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, m := range Corpus {
		if !only.MatchString(m.Path) {
			continue
		}
		root, err := Fetch(context.Background(), m, repoRoot, modcache, filepath.Join(work, "src"))
		if err != nil {
			t.Errorf("%s: %v", m, err)
			fmt.Fprintf(&table, "| %s | not fetched | | | | | | | | | |\n", m)
			continue
		}
		r, err := Execute(lim, root, Env(modcache), chordgo, args...)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		name := strings.ReplaceAll(m.Path, "/", "_")
		if *outFlag != "" {
			for ext, data := range map[string][]byte{".json": r.Stdout, ".stderr": r.Stderr} {
				if err := os.WriteFile(filepath.Join(*outFlag, name+ext), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		status := fmt.Sprintf("exit %d", r.Exit)
		if b := budgetRanOut.FindSubmatch(r.Stderr); b != nil {
			status += fmt.Sprintf(" (%s budget)", b[1])
		}
		if !r.Finished() {
			status = "killed: " + r.Killed
		}
		row := fmt.Sprintf("| %s | %s | %.0f s | %.0f s | %.2f GB | ", m, status, r.Wall.Seconds(), r.CPU.Seconds(), float64(r.PeakRSS)/(1<<30))
		if !r.Finished() || len(r.Stdout) == 0 {
			fmt.Fprintf(&table, "%s | | | | | |\n", row)
			report := t.Logf
			if r.Finished() && r.Exit != exitStopped {
				report = t.Errorf // chordgo failed, not a limit: a defect of the harness or of chordgo
			}
			report("%s: %s; stderr ends:\n%s", m, status, tail(r.Stderr, 2000))
			continue
		}
		o, err := ParseReport(r.Stdout, Prefixes{{root, ""}, {modcache, "$GOMODCACHE/"}, {strings.TrimSpace(string(goroot)), "$GOROOT/"}})
		if err != nil {
			t.Errorf("%s: %v; stderr ends:\n%s", m, err, tail(r.Stderr, 2000))
			fmt.Fprintf(&table, "%s | | | | | |\n", row)
			continue
		}
		j := Judge(m.Path, o.Locations, verdicts)
		fmt.Fprintf(&table, "%s%d | %d | %d | %d | %d | %.0f%% |\n", row, o.Races, j.Reported, j.True, j.False, len(j.Missing), 100*j.Precision())
		t.Logf("%s: %d races, %d locations, %d demand iterations, stage seconds %s, load errors %d, false by class %v",
			m, o.Races, len(o.Locations), o.Demand, topStages(o.Seconds), len(o.Errors), j.ByClass)
		for _, l := range j.Missing {
			t.Errorf("%s: no verdict for location %s %s (%d pairs, e.g. %s)", m, l.Key, l.Where, len(l.Pairs), l.Pairs[0])
			fmt.Fprintf(&missing, "%s\t%s\t%s\t\t\t%d pairs, e.g. %s\n", m.Path, l.Key, l.Where, len(l.Pairs), l.Pairs[0])
		}
		for _, v := range j.Stale {
			t.Logf("%s:%d: verdict matches no reported location: %s %s", *triageFlag, v.Line, v.Key, v.Where)
		}
		for _, mv := range j.Moved {
			t.Logf("%s:%d: location %s is now reported as %s", *triageFlag, mv.Verdict.Line, mv.Verdict.Key, mv.Where)
		}
	}
	t.Logf("\n%s", table.String())
	if *outFlag != "" {
		for name, text := range map[string]string{"results.md": table.String(), "missing.tsv": missing.String()} {
			if err := os.WriteFile(filepath.Join(*outFlag, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// exitStopped is chordgo check's exit status when a budget ran out before
// its first complete run: nothing is reported, and that is a result.
const exitStopped = 3

// budgetRanOut finds chordgo check's message that a budget stopped it.
var budgetRanOut = regexp.MustCompile(`the (time|memory) budget \(-`)

// topStages lists the stages by time spent, longest first.
func topStages(secs map[string]float64) string {
	names := make([]string, 0, len(secs))
	for n := range secs {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if secs[a] != secs[b] {
			if secs[a] > secs[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %.1f", n, secs[n]))
	}
	return strings.Join(parts, ", ")
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// TestWitnesses checks the witnesses of the true verdicts: the files under
// testdata/witness/MODULE are copied into the module's root, and each
// TestWitness* function in them must fail with a race report under go test
// -race in three runs of three.
func TestWitnesses(t *testing.T) {
	repoRoot, work, modcache := workDirs(t)
	for _, m := range Corpus {
		overlay := filepath.Join("testdata", "witness", filepath.FromSlash(m.Path))
		if _, err := os.Stat(overlay); os.IsNotExist(err) {
			continue
		}
		names, err := witnessTests(overlay)
		if err != nil {
			t.Fatal(err)
		}
		root, err := Fetch(context.Background(), m, repoRoot, modcache, filepath.Join(work, "src"))
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if err := copyTree(overlay, root); err != nil {
			t.Fatal(err)
		}
		for run := 1; run <= 3; run++ {
			cmd := exec.Command("go", "test", "-race", "-count=1", "-run", "^TestWitness", "./...")
			cmd.Dir, cmd.Env = root, Env(modcache)
			out, _ := cmd.CombinedOutput()
			for _, name := range names {
				if !strings.Contains(string(out), "--- FAIL: "+name+" ") || !strings.Contains(string(out), "WARNING: DATA RACE") {
					t.Errorf("%s: run %d: %s does not fail with a race:\n%s", m, run, name, tail(out, 3000))
				}
			}
		}
	}
}

// workDirs gives the repository's root, a temporary directory for the
// corpus, and the module cache in it.
func workDirs(t *testing.T) (repoRoot, work, modcache string) {
	repoRoot, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	work = t.TempDir()
	return repoRoot, work, filepath.Join(work, "modcache")
}

// witnessTests lists the TestWitness* functions of the files under dir.
func witnessTests(dir string) ([]string, error) {
	decl := regexp.MustCompile(`(?m)^func (TestWitness\w*)\(`)
	var names []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		for _, m := range decl.FindAllSubmatch(data, -1) {
			names = append(names, string(m[1]))
		}
		return err
	})
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("%s: no TestWitness function", dir)
	}
	return names, err
}
