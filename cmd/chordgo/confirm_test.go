package main

import (
	"encoding/json"
	"regexp"
	"testing"
)

func TestConfirm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs with -race")
	}
	racy := testdata(t, "confirm", "racy")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string // regexps
		stderr []string // regexps
	}{
		// A race every run shows, one that needs a directed run, and a
		// false alarm that neither run confirms.
		{name: "undirected and directed", args: []string{"confirm", "-count", "1", "-wait", "1s", "-paths", "0", racy, testdata(t, "confirm", "rare"), testdata(t, "confirm", "racefree")}, code: 1,
			stdout: []string{
				`racy.go:12:3\n\nRace [0-9a-f]+\nConfirmed by go test -race: \S+/racy TestHit\n`,
				`racy.go:26:3\n\nRace [0-9a-f]+\nConfirmed by go test -race: \S+/racy TestRename\n`,
				`rare.go:26:3\n\nRace [0-9a-f]+\nConfirmed by go test -race in a directed run: \S+/rare TestStart\n  schedule: write at rare.go:26 arrived first and waited [0-9.]+ms for write at rare.go:36, which went first\n`,
				`racefree.go:20:3\n\nRace [0-9a-f]+\nNot confirmed: not seen in 1 run of \S+/racefree TestHandoff; not seen in 2 directed runs of \S+/racefree TestHandoff with hooks before both accesses, each side going first in half of them \(the last one.s hooks: write at racefree.go:20 arrived first and waited \S+; \S+ at racefree.go:\d+ did not arrive.*\)\n`,
				`chordgo confirm: 5 access pairs: 3 confirmed \(1 by directed runs\), 2 not confirmed; 0 races missed\n$`,
			}},
		// chordgo does not see accesses through reflect (README,
		// Soundness): this race is missed, and -all finds it.
		{name: "missed", args: []string{"confirm", "-all", "-count", "1", testdata(t, "confirm", "missed")}, code: 4,
			stdout: []string{`MISSED RACE: .*\nAccesses at \S+/missed.go:15 and \S+/missed.go:18, seen running \S+/missed TestBump\nWARNING: DATA RACE\n`, `1 race missed\n$`},
			stderr: []string{`reported 1 race\(s\) that chordgo did not`}},
		{name: "bad mode", args: []string{"confirm", "-mode", "sideways", racy}, code: 2, stderr: []string{`-mode: unknown mode "sideways"`}},
		{name: "bad count", args: []string{"confirm", "-count", "0", racy}, code: 2, stderr: []string{`-count 0: want at least 1 run`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCaptured(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, re := range tc.stdout {
				if !regexp.MustCompile(re).MatchString(stdout) {
					t.Errorf("stdout does not match %q:\n%s", re, stdout)
				}
			}
			for _, re := range tc.stderr {
				if !regexp.MustCompile(re).MatchString(stderr) {
					t.Errorf("stderr does not match %q:\n%s", re, stderr)
				}
			}
		})
	}
}

// TestConfirmJSON: check's JSON, with confirmed, witness and note per race.
func TestConfirmJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs with -race")
	}
	code, stdout, stderr := runCaptured(t, "confirm", "-json", "-count", "1", "-mode", "undirected", testdata(t, "confirm", "racy"))
	if code != 1 {
		t.Fatalf("exit status %d, want 1; stderr:\n%s", code, stderr)
	}
	var out struct {
		Races []struct {
			ID        string
			Accesses  []struct{ Pos string }
			Confirmed bool
			Witness   *struct {
				Program, Test, Report string
				Directed              bool
			}
			Note string
		}
		Misses []json.RawMessage
		Stats  struct{ Pairs struct{ Ultimate int } }
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if len(out.Races) != 2 || out.Stats.Pairs.Ultimate != 2 || out.Misses == nil || len(out.Misses) != 0 {
		t.Fatalf("want 2 races, no misses: %s", stdout)
	}
	for _, r := range out.Races {
		if r.ID == "" || len(r.Accesses) != 2 || !r.Confirmed || r.Witness == nil || r.Witness.Directed || r.Note != "" ||
			!regexp.MustCompile(`^Test(Hit|Rename)$`).MatchString(r.Witness.Test) ||
			!regexp.MustCompile(`^WARNING: DATA RACE\n`).MatchString(r.Witness.Report) {
			t.Errorf("race %+v: want check's fields, confirmed undirected by its test", r)
		}
	}
}
