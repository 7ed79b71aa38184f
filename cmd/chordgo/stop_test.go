package main

import (
	"context"
	"flag"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/reports"
)

// TestStopAfterRun ends check's budget after the demand loop's first and
// second completed runs of Naik's Figure 4.1, whose third run drops two of
// the first run's three race pairs: the report is the last completed run's
// (built as the run completed, since the loop keeps no run's analysis
// while the next one runs), its races and its iterations, with the
// message that says so; with no stop it is the third run's.
func TestStopAfterRun(t *testing.T) {
	dir := testdata(t, "races", "naik_fig4_1")
	for _, tc := range []struct {
		stopAfter  int // runs completed when the budget ends; 0: never
		iterations int
		pairs      int
	}{
		{1, 1, 3},
		{2, 2, 3},
		{0, 3, 1},
	} {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		lf, af := addLoadFlags(fs), addAnalysisFlags(fs)
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		runs := 0
		af.keep = func(*demand.Result) {
			if runs++; runs == tc.stopAfter {
				cancel(errInterrupted)
			}
		}
		var rep *reports.Report
		code, _, stderr := captured(t, func() int {
			var code int
			rep, _, code = af.analyze(ctx, "check", lf, []string{dir}, false, nil)
			return code
		})
		if rep == nil || code != exitClean {
			t.Fatalf("stop after %d runs: exit status %d, report %v; stderr:\n%s", tc.stopAfter, code, rep, stderr)
		}
		if got := rep.Stats.Demand.Iterations; got != tc.iterations || rep.Stats.Reported != tc.pairs {
			t.Errorf("stop after %d runs: %d iterations, %d pairs; want %d, %d", tc.stopAfter, got, rep.Stats.Reported, tc.iterations, tc.pairs)
		}
		const msg = "interrupted while analyzing the programs; reporting the races of the last completed run of each of 1 program(s)"
		if stopped := strings.Contains(stderr, msg); stopped != (tc.stopAfter > 0) {
			t.Errorf("stop after %d runs: the message %q is there: %v; stderr:\n%s", tc.stopAfter, msg, stopped, stderr)
		}
	}
}
