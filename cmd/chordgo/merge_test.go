package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestShardMerge checks that the shards of a check, merged, print the
// bytes of the unsharded check: the programs of testdata/races whose
// names start with "a" (mains) and the two test binaries of
// programs_share_lib, split three ways; and testdata/shards's two test
// binaries, one per shard, with the races of the library both call in the
// baseline (filtered in two shards, counted once).
func TestShardMerge(t *testing.T) {
	mains, shareLib, sharedRace := testdata(t, "races")+"/a...", testdata(t, "races", "programs_share_lib")+"/...", testdata(t, "shards")+"/..."
	dir := t.TempDir()
	baseline := filepath.Join(dir, "baseline")
	if code, _, stderr := runCaptured(t, "check", "-demand=false", "-write-baseline", baseline, sharedRace); code != 1 {
		t.Fatalf("check -write-baseline: status %d, want 1 (races); stderr:\n%s", code, stderr)
	}
	for _, tc := range []struct {
		name     string
		patterns []string
		flags    []string
		shards   int
		code     int // of the unsharded check and the merge
	}{
		{"all reported", []string{mains, shareLib}, nil, 3, 1},
		{"all in the baseline", []string{sharedRace}, []string{"-baseline", baseline}, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(extra ...string) (int, string, string) {
				args := slices.Concat([]string{"check", "-json", "-demand=false"}, tc.flags, extra, tc.patterns)
				return runCaptured(t, args...)
			}
			code, whole, stderr := check()
			if code != tc.code {
				t.Fatalf("check: status %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			var files []string
			for i := range tc.shards {
				shard := fmt.Sprintf("%d/%d", i+1, tc.shards)
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
				name := filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.ReplaceAll(tc.name, " ", "-"), i))
				if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, name)
			}
			// In either order: the merge does not depend on it.
			for _, args := range [][]string{files, slices.Concat(files[1:], files[:1])} {
				code, merged, stderr := runCaptured(t, append([]string{"merge"}, args...)...)
				if code != tc.code {
					t.Errorf("merge %v: status %d, want %d; stderr:\n%s", args, code, tc.code, stderr)
				}
				if merged != whole {
					t.Errorf("merge %v differs from the unsharded report:\n%s\nwant:\n%s", args, merged, whole)
				}
			}
		})
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
