package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/reports"
)

func TestRacefree(t *testing.T) {
	loops := testdata(t, "racefree", "loops")
	out := filepath.Join(t.TempDir(), "rf.json")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // regexp
		stderr string // regexp
	}{
		{name: "loops", args: []string{"racefree", "-v", "-overlay", out, loops}, code: 0,
			stdout: `loops.go:\d+:1: \(\*Stats\)\.Add: //go:norace \(10 loads and stores\)\n(.|\n)*` +
				`loops.go:\d+:1: Parallel: not marked: generic: (.|\n)*` +
				`chordgo racefree: 6 of 11 function declarations marked //go:norace \(26 loads and stores in their bodies\); wrote \S+rf.json\n` +
				`  4 not marked: calls a function the compiler may inline whose loads and stores are not all proven race-free\n` +
				`  1 not marked: generic: .*\n` +
				`\d+ race-free loads and stores of \d+ functions not marked go through //go:norace accessors\n`},
		{name: "no overlay", args: []string{"racefree", loops}, code: 2, stderr: `-overlay FILE is required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCaptured(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if !regexp.MustCompile(tc.stdout).MatchString(stdout) {
				t.Errorf("stdout does not match %q:\n%s", tc.stdout, stdout)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("stderr does not match %q:\n%s", tc.stderr, stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), "rf.files", "0_loops.go")); err != nil {
		t.Errorf("the rewritten copy: %v", err)
	}
}

// TestNoResultsAfterTaken: once the command has taken the results (a budget
// stopped it while run went on), a run or program that run completes later
// is dropped, so that keep does not write racefree's planner while the
// command plans from it, nor run a report the command merges.
func TestNoResultsAfterTaken(t *testing.T) {
	kept := 0
	an := &analysis{keep: func(*demand.Result) { kept++ }, progress: &progress{stopped: true, running: map[int]string{}},
		reports: map[int]*reports.Report{}, current: map[int]*reports.Report{}, taken: true}
	dr := &demand.Result{Program: 1}
	an.runCompleted(dr)
	an.programDone(dr, nil)
	if kept != 0 || len(an.current) != 0 || len(an.reports) != 0 {
		t.Errorf("after the results were taken: keep called %d times, %d runs and %d programs reported; want none",
			kept, len(an.current), len(an.reports))
	}
}
