package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/internal/gittest"
)

// The history of TestReview's module: race-free, then a race on hits in a
// new function, then a race on misses in a function added above it, which
// moves the lines of the race on hits without changing them. go run -race
// reports the races of each version.
var (
	reviewRaceFree = `package main

var counter int

func main() {
	done := make(chan bool)
	go func() {
		counter++
		done <- true
	}()
	<-done
	counter++
}
`
	reviewHits = strings.Replace(strings.Replace(reviewRaceFree, "var counter int", "var counter, hits int", 1),
		"\tcounter++\n}\n", "\tcounter++\n\tcount()\n}\n\n"+`func count() {
	done := make(chan bool)
	go func() {
		hits++
		done <- true
	}()
	hits++
	<-done
}
`, 1)
	reviewMisses = strings.Replace(strings.Replace(strings.Replace(reviewHits, "var counter, hits int", "var counter, hits, misses int", 1),
		"\tcount()\n", "\tcount()\n\tmiss()\n", 1),
		"func count() {", `func miss() {
	done := make(chan bool)
	go func() {
		misses++
		done <- true
	}()
	misses++
	<-done
}

func count() {`, 1)
)

// checkIDs runs chordgo check -json with args on the current directory
// and returns its exit status and the ids of the races it reports.
func checkIDs(t *testing.T, args ...string) (int, []string) {
	t.Helper()
	code, out, stderr := runCaptured(t, append(append([]string{"check", "-json"}, args...), ".")...)
	var rep struct{ Races []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check %v: exit status %d, %v; stderr:\n%s", args, code, err, stderr)
	}
	var ids []string
	for _, r := range rep.Races {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return code, ids
}

// TestReview commits reviewRaceFree, reviewHits and reviewMisses to a
// temporary git repository: -new-from-rev and -baseline report exactly
// the races a change adds, also when the change moves the lines of an
// older race, and -sarif writes the races reported.
func TestReview(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // the go command loads a module from its directory
	git := gittest.Init(t, dir)
	commit := func(src, msg string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", ".")
		git("commit", "-q", "-m", msg)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module prog\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit(reviewRaceFree, "race-free")
	if code, ids := checkIDs(t); code != 0 || len(ids) != 0 {
		t.Fatalf("race-free: exit status %d, races %v", code, ids)
	}
	commit(reviewHits, "hits")
	_, hits := checkIDs(t, "-write-baseline", filepath.Join(dir, "baseline"))
	if len(hits) == 0 {
		t.Fatal("no race on hits")
	}
	if code, ids := checkIDs(t, "-new-from-rev", "HEAD~1"); code != 1 || !slices.Equal(ids, hits) {
		t.Errorf("-new-from-rev HEAD~1 after adding hits: exit status %d, races %v; want 1, %v", code, ids, hits)
	}
	if code, ids := checkIDs(t, "-baseline", filepath.Join(dir, "baseline")); code != 0 || len(ids) != 0 {
		t.Errorf("-baseline of the same version: exit status %d, races %v; want 0, none", code, ids)
	}
	commit(reviewMisses, "misses")
	_, all := checkIDs(t)
	var misses []string
	for _, id := range all {
		if !slices.Contains(hits, id) {
			misses = append(misses, id)
		}
	}
	if len(misses) == 0 || len(all) != len(hits)+len(misses) {
		t.Fatalf("races %v after adding misses, %v before", all, hits)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"new from the last commit", []string{"-new-from-rev", "HEAD~1"}, misses},
		{"new from the first commit", []string{"-new-from-rev", "HEAD~2"}, all},
		{"new in the working tree", []string{"-new-from-rev", "HEAD"}, nil},
		{"baseline", []string{"-baseline", filepath.Join(dir, "baseline")}, misses},
		{"baseline and new from the last commit", []string{"-baseline", filepath.Join(dir, "baseline"), "-new-from-rev", "HEAD~1"}, misses},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sarif := filepath.Join(t.TempDir(), "log.sarif")
			code, ids := checkIDs(t, append(tc.args, "-sarif", sarif)...)
			if wantCode := min(len(tc.want), 1); code != wantCode || !slices.Equal(ids, tc.want) {
				t.Errorf("exit status %d, races %v; want %d, %v", code, ids, wantCode, tc.want)
			}
			data, err := os.ReadFile(sarif)
			if err != nil {
				t.Fatal(err)
			}
			var log struct {
				Runs []struct {
					Results []struct{ PartialFingerprints map[string]string }
				}
			}
			if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
				t.Fatalf("SARIF log: %v, %d runs", err, len(log.Runs))
			}
			var logged []string
			for _, r := range log.Runs[0].Results {
				logged = append(logged, r.PartialFingerprints["chordgoRaceId/v1"])
			}
			slices.Sort(logged)
			if !slices.Equal(logged, ids) {
				t.Errorf("SARIF results %v, races reported %v", logged, ids)
			}
		})
	}
}
