package races_test

import (
	"path/filepath"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// TestInstanceEscape checks where instance escape applies: in each program
// of testdata/races below, a goroutine started by a go statement that runs
// many times (mhp: not Single) runs both accesses of a race on a location
// (self), or two goroutines run its two accesses (cross). Where the rule
// applies, such goroutine pairs are reported with the rule off and not
// with it on (main's constructor writes its own object of the workers'
// site: instance_pool_main_builds_first; main and two workers build tables
// of their own: instance_goroutines_own_tables); where it must not (the
// instances share an object they allocate, through a global, a shared
// field, a channel, a sync.Pool, a go statement of the goroutine itself, a
// struct copied out of an interface's box, or a field or an array main
// writes into a worker's object, the array through an append with room; an
// object one goroutine hands another at its start or points the other's
// object at), they are reported either way.
// TestWant checks the lines of the races.
func TestInstanceEscape(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	a, err := analyzer(root, "./testdata/races/instance_...")
	if err != nil {
		t.Fatal(err)
	}
	// By program directory, with the rule off and on: the goroutine pairs
	// whose two goroutines are one that a go statement may start many times
	// (self), and those of two goroutines (cross).
	selfPairs := [2]map[string]int{{}, {}}
	crossPairs := [2]map[string]int{{}, {}}
	for k, off := range []bool{true, false} {
		err := demand.Each(a, demand.Options{Once: true, Races: races.Options{NoInstance: off}}, demand.EachOptions{}, func(r *demand.Result) error {
			gs := r.Races.Goroutines
			for _, race := range r.Races.Races {
				dir := filepath.Base(filepath.Dir(a.Facts.AccessPos(race.Accesses[0].E).Filename))
				for _, p := range race.Pairs {
					if g := gs.List[p[0]]; p[0] == p[1] && g.Kind == mhp.GoGoroutine && !g.Single {
						selfPairs[k][dir]++
					} else if p[0] != p[1] {
						crossPairs[k][dir]++
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		program string
		cross   bool
		applies bool
	}{
		{"instance_pool_own_objects", false, true},
		{"instance_pool_main_builds_first", false, true},
		{"instance_rewired_by_main_racy", false, false},
		{"instance_append_into_worker_racy", false, false},
		{"instance_pool_global_racy", false, false},
		{"instance_pool_shared_field_racy", false, false},
		{"instance_handoff_chan_racy", false, false},
		{"instance_handoff_pool_racy", false, false},
		{"instance_spawn_self_racy", false, false},
		{"instance_value_from_box_racy", false, false},
		{"instance_goroutines_own_tables", true, true},
		{"instance_goroutines_rewired_racy", true, false},
		{"instance_goroutines_shared_index_racy", true, false},
	} {
		counts, what := selfPairs, "of one goroutine that runs many times"
		if tc.cross {
			counts, what = crossPairs, "of two goroutines"
		}
		off, on := counts[0][tc.program], counts[1][tc.program]
		if off == 0 || (on == 0) != tc.applies {
			t.Errorf("%s: %d goroutine pairs %s with instance escape off, %d with it on; want some off, and none on: %v",
				tc.program, off, what, on, tc.applies)
		}
	}
}

// TestInstanceBudget: past FindAfter's budget instance escape does not run,
// and the run keeps every race it would have removed (here the workers'
// own objects of instance_pool_own_objects); within the budget the result
// is the whole funnel's.
func TestInstanceBudget(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	a, err := analyzer(root, "./testdata/races/instance_pool_own_objects")
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Run(pointsto.NewSigma())
	if err != nil {
		t.Fatal(err)
	}
	funnel := races.NewFinder(a.Facts, races.Options{})
	whole, err := funnel.FindAfter(r, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if whole.InstanceWork == 0 || whole.InstanceSkipped {
		t.Fatalf("without a budget: instance work %d, skipped %v", whole.InstanceWork, whole.InstanceSkipped)
	}
	within, err := funnel.FindAfter(r, nil, nil, whole.InstanceWork)
	if err != nil {
		t.Fatal(err)
	}
	if within.InstanceSkipped || len(within.Races) != len(whole.Races) {
		t.Errorf("within the budget: skipped %v, %d races, want %d", within.InstanceSkipped, len(within.Races), len(whole.Races))
	}
	past, err := funnel.FindAfter(r, nil, nil, whole.InstanceWork-1)
	if err != nil {
		t.Fatal(err)
	}
	if !past.InstanceSkipped {
		t.Fatal("past the budget instance escape ran")
	}
	kept := map[[2]uint32]bool{}
	for _, race := range past.Races {
		kept[[2]uint32{race.Accesses[0].E, race.Accesses[1].E}] = true
	}
	for _, race := range whole.Races {
		if !kept[[2]uint32{race.Accesses[0].E, race.Accesses[1].E}] {
			t.Errorf("race %v reported with instance escape, not without", race.Accesses)
		}
	}
	if len(past.Races) <= len(whole.Races) {
		t.Errorf("without instance escape %d races, with it %d: the rule removed nothing here", len(past.Races), len(whole.Races))
	}
}
