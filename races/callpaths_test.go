package races_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// TestCallPathMemoBound checks that what the proof per call path does to
// save work changes no result: each program is analyzed as it is, with a
// memo bound of 0 (every walk starts from an empty memo, the answers
// dropped), and with every lock query asked (no side left out by
// lockable), and the races and counts must be the same. The programs:
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
			find := func(variant func() (restore func())) *races.Result {
				if variant != nil {
					defer variant()()
				}
				res, err := races.NewFinder(a.Facts, races.Options{}).Find(r, nil)
				if err != nil {
					t.Fatal(err)
				}
				res.Stats.Times = nil
				return res
			}
			want := find(nil)
			for _, v := range []struct {
				name    string
				variant func() (restore func())
			}{
				{"with every answer dropped", func() func() { return races.SetCallPathMemo(0) }},
				{"with every lock query asked", func() func() { return races.SetLockableFirst(false) }},
			} {
				if got := find(v.variant); !reflect.DeepEqual(got.Stats, want.Stats) || !reflect.DeepEqual(got.Races, want.Races) {
					t.Errorf("%s: %+v, %d races; as it is: %+v, %d races", v.name, got.Stats, len(got.Races), want.Stats, len(want.Races))
				}
			}
			st := want.Stats
			if tc.proves && st.Parallel == st.Unlocked || !tc.proves && st.Unlocked == 0 {
				t.Errorf("%d pairs before the unlocked stage, %d after: the program no longer exercises the proof as it did", st.Parallel, st.Unlocked)
			}
		})
	}
}
