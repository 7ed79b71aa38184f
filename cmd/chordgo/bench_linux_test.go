//go:build linux

package main

import (
	"errors"
	"io"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCheckSmall runs `chordgo check` (demand loop on) on small
// programs of testdata/races as a process of its own, the way a user runs
// it: ns/op is its wall time, user-s its user CPU and peak-MB its maximum
// resident set size (the largest of the iterations). Issue 12's goal for a
// one-file program is 1.5 s and 300 MB.
func BenchmarkCheckSmall(b *testing.B) {
	for _, prog := range []string{
		"closure_write_racy",         // main, imports fmt
		"context_cancel_racy",        // main, imports context and fmt
		"list_under_owner_lock_racy", // main, the longest file of testdata/races
		"subtests_parallel_racy",     // tests: imports testing
	} {
		b.Run(prog, func(b *testing.B) {
			dir := testdata(b, "races", prog)
			var user time.Duration
			var peak int64
			for b.Loop() {
				cmd := runCommand(b, io.Discard, io.Discard, "check", dir)
				err := cmd.Wait()
				if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 {
					b.Fatalf("chordgo check %s: %v, want exit status 1 (races reported)", prog, err)
				}
				user += cmd.ProcessState.UserTime()
				peak = max(peak, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
			}
			b.ReportMetric(user.Seconds()/float64(b.N), "user-s")
			b.ReportMetric(float64(peak)/1024, "peak-MB") // Maxrss is in KiB
		})
	}
}
