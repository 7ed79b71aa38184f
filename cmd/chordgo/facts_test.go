package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// ruleFiles are the rule files one analysis runs, by the directory facts
// writes their inputs into, relative to the repository root.
var ruleFiles = map[string]string{
	"ci":            "pointsto/ci.dl",
	"kobj":          "pointsto/kobj.dl",
	"mhp":           "mhp/mhp.dl",
	"races":         "races/races.dl",
	"escape":        "escape/escape.dl",
	"instance":      "escape/instance.dl",
	"condmustnot":   "condmustnot/condmustnot.dl",
	"condmustnot-2": "condmustnot/condmustnot.dl",
	"condmustnot-3": "condmustnot/condmustnot.dl",
}

// goInputs are the inputs of each run that Go computes (README's table).
// Every other input is a file of the same name, unchanged, among the base
// relations and the inputs and outputs of the runs before: those need no
// Go between stages.
var goInputs = map[string][]string{
	"kobj":          {"entryCtx", "newObj", "newObjIn", "globalObj", "objSite", "subObj", "callCtx", "selfCtx", "startCtx"},
	"mhp":           {"threadEntry", "spawnSite", "recvKind", "releaseKind", "sendKind", "waitKind", "doneKind", "onceKind", "mutexMethod", "madeChan", "unsafePtr"},
	"races":         {"accessPt", "concurrentReach", "sequentialReach", "analyzed", "other", "checked"},
	"instance":      {"pairSide"},
	"condmustnot":   condmustnotInputs,
	"condmustnot-2": condmustnotInputs,
	"condmustnot-3": condmustnotInputs,
}

var condmustnotInputs = []string{"pair", "heldAt", "lockObj", "heldObj", "unique", "fine", "chanHeld", "lockChan", "recvCase", "closed",
	"medium", "accObj", "objSite", "fieldStore", "ownerStore", "copied"}

// A datalogEngine evaluates rule file program over the facts in factDir
// and writes its output relations as <rel>.csv into outDir.
type datalogEngine func(t *testing.T, program, factDir, outDir string) error

// ourEngine is chordgo datalog.
func ourEngine(t *testing.T, program, factDir, outDir string) error {
	if code, _, stderr := runCaptured(t, "datalog", "-F", factDir, "-D", outDir, program); code != 0 {
		return fmt.Errorf("exit status %d: %s", code, stderr)
	}
	return nil
}

// souffleEngine is Souffle's interpreter on two threads.
func souffleEngine(t *testing.T, program, factDir, outDir string) error {
	if out, err := exec.Command("souffle", "-j", "2", "-F", factDir, "-D", outDir, program).CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

// TestRuleInputs writes the inputs of every rule file's run for a few
// programs under two Sigmas, runs each rule file alone from its directory (with chordgo
// datalog, and with Souffle when it is installed), and checks that every
// output relation equals, tuple for tuple, what the in-process pipeline's
// run of that rule file derived: the inputs facts writes are complete.
func TestRuleInputs(t *testing.T) {
	engines := []struct {
		name string
		run  datalogEngine
	}{{"chordgo", ourEngine}}
	if _, err := exec.LookPath("souffle"); err == nil {
		engines = append(engines, struct {
			name string
			run  datalogEngine
		}{"souffle", souffleEngine})
	} else {
		t.Log("souffle is not on PATH: the rule files run in chordgo datalog only (Souffle 2.5: https://souffle-lang.github.io/install)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// One analysis of five programs: closures, channels used as locks,
	// medium-grained locks, locks held by callers, WaitGroup.Go.
	prog, err := pointsto.Load(pointsto.Config{Dir: testdata(t, "races"), Tests: true, Patterns: []string{
		"./closure_write_racy", "./chan_mutex_helpers", "./naik_fig3_1_medium", "./helper_locked_by_callers_racy", "./waitgroup_go",
	}})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := pointsto.Extract(prog)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			w := &ruleInputWriter{dir: t.TempDir()}
			if err := facts.WriteDir(w.dir); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var dbs []*datalog.Database // the pipeline's, in the order of w.dirs
			sigma := pointsto.NewSigma()
			sigma.DefaultSite, sigma.DefaultCalls = k, k
			if _, err := recordRuleRuns(facts, sigma, races.Options{}, false, func(db *datalog.Database) {
				mu.Lock()
				defer mu.Unlock()
				w.record(db)
				dbs = append(dbs, db)
			}); err != nil {
				t.Fatal(err)
			}
			if w.err != nil {
				t.Fatal(w.err)
			}
			if got, want := slices.Sorted(slices.Values(w.dirs)), slices.Sorted(maps.Keys(ruleFiles)); !slices.Equal(got, want) {
				t.Fatalf("rule file runs %v, want %v", got, want)
			}
			upstream := []string{w.dir} // directories of base relations, and of the runs' inputs and outputs so far
			for i, run := range w.dirs {
				program := filepath.Join(root, ruleFiles[run])
				checkPassedThrough(t, run, dbs[i].Program(), filepath.Join(w.dir, run), upstream)
				upstream = append(upstream, filepath.Join(w.dir, run))
				for _, eng := range engines {
					out := t.TempDir()
					if err := eng.run(t, program, filepath.Join(w.dir, run), out); err != nil {
						t.Fatalf("%s on %s: %v", eng.name, run, err)
					}
					compareOutputs(t, eng.name+" on "+run, dbs[i], out)
					if eng.name == "chordgo" {
						upstream = append(upstream, out)
					}
				}
			}
		})
	}
}

// compareOutputs checks that each output relation of db's program, as
// written in outDir/<rel>.csv, holds exactly db's tuples.
func compareOutputs(t *testing.T, what string, db *datalog.Database, outDir string) {
	t.Helper()
	for _, rel := range db.Program().Relations {
		if !rel.Output {
			continue
		}
		data, err := os.ReadFile(filepath.Join(outDir, rel.Name+".csv"))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		var want bytes.Buffer
		if err := writeSorted(&want, db, rel); err != nil {
			t.Fatal(err)
		}
		if got, want := sortedLines(data), sortedLines(want.Bytes()); !slices.Equal(got, want) {
			t.Errorf("%s: %s has %d tuples, the pipeline's %d; first difference: %s", what, rel.Name, len(got), len(want), firstDifference(got, want))
		}
	}
}

// checkPassedThrough checks that each input of run in dir that Go does
// not compute (goInputs) equals a file of its name, <rel>.facts or
// <rel>.csv, in one of the upstream directories.
func checkPassedThrough(t *testing.T, run string, prog *datalog.Program, dir string, upstream []string) {
	t.Helper()
	for _, rel := range prog.Relations {
		if !rel.Input || slices.Contains(goInputs[run], rel.Name) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, rel.Name+".facts"))
		if err != nil {
			t.Fatal(err)
		}
		want := sortedLines(data)
		found := false
		for _, up := range upstream {
			for _, name := range []string{rel.Name + ".facts", rel.Name + ".csv"} {
				if data, err := os.ReadFile(filepath.Join(up, name)); err == nil && slices.Equal(sortedLines(data), want) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: input %s is not among the base relations nor an earlier run's inputs or outputs: Go computes it, but goInputs and README do not say so", run, rel.Name)
		}
	}
}

func sortedLines(data []byte) []string {
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	slices.Sort(lines)
	return lines
}

// firstDifference names the first line of the sorted lists got and want
// that the other lacks.
func firstDifference(got, want []string) string {
	for _, l := range got {
		if _, ok := slices.BinarySearch(want, l); !ok {
			return "extra " + l
		}
	}
	for _, l := range want {
		if _, ok := slices.BinarySearch(got, l); !ok {
			return "missing " + l
		}
	}
	return "duplicate lines"
}

// TestFactsDeterministic checks that facts writes the same bytes in two
// runs: one under the demand loop's last Sigma, one under that Sigma read
// back with -sigma (which also checks that -sigma reads what -demand
// wrote).
func TestFactsDeterministic(t *testing.T) {
	program := testdata(t, "races", "demand_container")
	first, again, pointsOnly := t.TempDir(), t.TempDir(), t.TempDir()
	for _, args := range [][]string{
		{"-demand", "-o", first},
		{"-sigma", filepath.Join(first, "sigma.tsv"), "-o", again},
		{"-sigma", filepath.Join(first, "sigma.tsv"), "-pointsto-only", "-o", pointsOnly},
	} {
		if code, _, stderr := runCaptured(t, append(append([]string{"facts"}, args...), program)...); code != 0 {
			t.Fatalf("facts %v: exit status %d: %s", args, code, stderr)
		}
	}
	want := readTree(t, first)
	if sigma := want["sigma.tsv"]; !strings.Contains(sigma, "\nsite\t") {
		t.Errorf("sigma.tsv of -demand raises no site's k on demand_container:\n%s", sigma)
	}
	got := readTree(t, again)
	for name := range want {
		if got[name] != want[name] {
			t.Errorf("%s differs between the two runs", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is in the -sigma run's directory only", name)
		}
	}
	// -pointsto-only writes the same files, but none of the later stages'.
	only := readTree(t, pointsOnly)
	for name := range want {
		later := strings.Contains(name, string(filepath.Separator)) &&
			!strings.HasPrefix(name, "ci"+string(filepath.Separator)) && !strings.HasPrefix(name, "kobj"+string(filepath.Separator))
		if data, ok := only[name]; ok == later || ok && data != want[name] {
			t.Errorf("-pointsto-only: %s written %v (want %v), or with other contents", name, ok, !later)
		}
	}
}

// readTree returns the contents of the files under dir by relative name.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestFactsFlags checks the errors of facts' Sigma flags.
func TestFactsFlags(t *testing.T) {
	program := testdata(t, "races", "closure_write_racy")
	badSigma := filepath.Join(t.TempDir(), "sigma.tsv")
	if err := os.WriteFile(badSigma, []byte("default-site\t1\nsite\t3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	zeroSite := filepath.Join(t.TempDir(), "sigma.tsv")
	if err := os.WriteFile(zeroSite, []byte("default-site\t0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"k and demand", []string{"-k", "2", "-demand"}, "-demand and -k: give one of -k, -demand and -sigma"},
		{"k zero", []string{"-k", "0"}, "-k 0: want a positive k"},
		{"pointsto-only and demand", []string{"-pointsto-only", "-demand"}, "-pointsto-only and -demand: the demand loop runs every stage"},
		{"bad sigma line", []string{"-sigma", badSigma}, badSigma + `:2: want "default-site K", "default-call K", "site H K", "call I K" or "root H", tab-separated; found "site\t3"`},
		{"zero site k", []string{"-sigma", zeroSite}, zeroSite + ":1: k = 0 for an allocation site"},
		{"missing sigma", []string{"-sigma", badSigma + ".none"}, "-sigma: open " + badSigma + ".none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"facts", "-o", t.TempDir()}, tc.args...), program)
			code, _, stderr := runCaptured(t, args...)
			if code != exitFailed || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit status %d, stderr %q; want %d and %q", code, stderr, exitFailed, tc.stderr)
			}
		})
	}
}
