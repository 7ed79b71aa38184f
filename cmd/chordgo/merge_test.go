package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestShardMerge checks that the shards of a check, merged, print the
// bytes of the unsharded check: the programs of testdata/races whose
// names start with "a" (mains) and the two test binaries of
// programs_share_lib, split three ways.
func TestShardMerge(t *testing.T) {
	patterns := []string{testdata(t, "races") + "/a...", testdata(t, "races", "programs_share_lib") + "/..."}
	check := func(extra ...string) (int, string, string) {
		return runCaptured(t, append(append([]string{"check", "-json", "-demand=false"}, extra...), patterns...)...)
	}
	code, whole, stderr := check()
	if code != 1 {
		t.Fatalf("check: status %d, want 1 (races); stderr:\n%s", code, stderr)
	}
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		shard := []string{"1/3", "2/3", "3/3"}[i]
		code, out, stderr := check("-shard", shard)
		if code > 1 {
			t.Fatalf("check -shard %s: status %d; stderr:\n%s", shard, code, stderr)
		}
		var rep struct {
			Stats struct{ Programs []struct{ Name string } }
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Stats.Programs) == 0 {
			t.Errorf("shard %s has no program: the test splits nothing there", shard)
		}
		name := filepath.Join(dir, strings.Replace(shard, "/", "of", 1)+".json")
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	// In any order: the merge does not depend on it.
	for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}} {
		var args []string
		for _, i := range order {
			args = append(args, files[i])
		}
		code, merged, stderr := runCaptured(t, append([]string{"merge"}, args...)...)
		if code != 1 {
			t.Errorf("merge %v: status %d, want 1; stderr:\n%s", order, code, stderr)
		}
		if merged != whole {
			t.Errorf("merge %v differs from the unsharded report:\n%s\nwant:\n%s", order, merged, whole)
		}
	}
}

// TestMergeErrors checks chordgo merge's and -shard's refusals.
func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "text.json")
	if err := os.WriteFile(notJSON, []byte("chordgo: 0 locations, 0 access pairs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	racy := testdata(t, "races", "closure_write_racy")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string // regexp
	}{
		{"no reports", []string{"merge"}, `no reports named`},
		{"missing report", []string{"merge", filepath.Join(dir, "none.json")}, `none.json: no such file`},
		{"text report", []string{"merge", notJSON}, `text.json: invalid character`},
		{"shard zero", []string{"check", "-shard", "0/3", racy}, `-shard.*want I/N with 1 <= I <= N`},
		{"shard past N", []string{"check", "-shard", "4/3", racy}, `-shard.*want I/N`},
		{"shard not a fraction", []string{"check", "-shard", "2", racy}, `-shard.*want I/N`},
		{"shard with -sarif", []string{"check", "-shard", "1/2", "-sarif", filepath.Join(dir, "log.sarif"), racy}, `-write-baseline and -sarif need every program's races`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCaptured(t, tc.args...)
			if code != 2 {
				t.Errorf("status %d, want 2; stderr:\n%s", code, stderr)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("standard error does not match %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}

// TestProgress checks the progress line: what it says as the analysis
// moves on, and that it writes nothing where standard error is not a
// terminal.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, start: time.Now(), running: map[int]string{}, quit: make(chan struct{})}
	for _, tc := range []struct {
		name string
		step func()
		want string // regexp of the line drawn after step
	}{
		{"loading", func() { p.phase("loading packages and building SSA") }, `^\rchordgo: loading packages and building SSA \(0s\)$`},
		{"programs", func() {
			p.phase("analyzing the programs")
			p.programs(12)
			p.run(3, "x/b (tests)", 1)
			p.run(1, "x/a (main)", 2)
		}, `^\rchordgo: 0 of 12 programs done \(0s\); x/a \(main\) run 2; x/b \(tests\) run 1$`},
		{"one done, cut", func() {
			p.done(1)
			p.run(3, "example.com/"+strings.Repeat("b", 80)+" (tests)", 2)
		}, `^\rchordgo: 1 of 12 programs done \(0s\); example.com/b+\.\.\.$`},
		{"shorter line", func() { p.done(3) }, `^\rchordgo: 2 of 12 programs done \(0s\) +$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf.Reset()
			tc.step()
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
			if !regexp.MustCompile(tc.want).MatchString(buf.String()) {
				t.Errorf("line %q, want %q", buf.String(), tc.want)
			}
		})
	}
	buf.Reset()
	p.stopped = false
	p.stop()
	if want := "\r" + strings.Repeat(" ", p.width) + "\r"; buf.String() != want {
		t.Errorf("stop wrote %q, want the line erased: %q", buf.String(), want)
	}

	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	q := newProgress(file)
	q.phase("loading")
	q.programs(3)
	q.run(0, "a (main)", 1)
	q.stop()
	if fi, err := file.Stat(); err != nil || fi.Size() != 0 {
		t.Errorf("on a file, not a terminal: wrote %d bytes (%v), want none", fi.Size(), err)
	}
}
