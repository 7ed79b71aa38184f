package races_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// TestCallPathMemoBound checks that the answers the proof per call path
// drops when its memo passes its bound change no result: each program is
// analyzed with the bound and with a bound of 0 (every walk starts from an
// empty memo), and the races and counts must be the same. The programs:
// BenchmarkCallPaths' module, small (many walks with lock queries, none
// proved), and helper_construct_then_locked, where the proof removes the
// pairs of a helper run before a go statement and under a lock (a query
// proved, used in the second pass).
func TestCallPathMemoBound(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	paths, err := writeModule(t.TempDir(), "paths", callPathsSrc, callPathsTest, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, pattern string
		proves             bool // the proof removes pairs (else: pairs reach it, and stay)
	}{
		{"walks", paths, ".", false},
		{"lock", root, "./testdata/races/helper_construct_then_locked", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := analyzer(tc.dir, tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			r, err := a.Run(pointsto.NewSigma())
			if err != nil {
				t.Fatal(err)
			}
			var res [2]*races.Result
			for k, bound := range []bool{false, true} {
				if bound {
					defer races.SetCallPathMemo(0)()
				}
				if res[k], err = races.NewFinder(a.Facts, races.Options{}).Find(r, nil); err != nil {
					t.Fatal(err)
				}
				res[k].Stats.Times = nil
			}
			if !reflect.DeepEqual(res[0].Stats, res[1].Stats) || !reflect.DeepEqual(res[0].Races, res[1].Races) {
				t.Errorf("with every answer dropped: %+v, %d races; kept: %+v, %d races", res[1].Stats, len(res[1].Races), res[0].Stats, len(res[0].Races))
			}
			st := res[0].Stats
			if tc.proves && st.Parallel == st.Unlocked || !tc.proves && st.Unlocked == 0 {
				t.Errorf("%d pairs before the unlocked stage, %d after: the program no longer exercises the proof as it did", st.Parallel, st.Unlocked)
			}
		})
	}
}
