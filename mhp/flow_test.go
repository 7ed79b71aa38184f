package mhp

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
)

// order runs the points-to under sigma and builds its Order, reusing flow.
func order(t *testing.T, a *pointsto.Analyzer, sigma *pointsto.Sigma, flow *Flow) *Order {
	t.Helper()
	r, err := a.Run(sigma)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := FindGoroutines(r)
	if err != nil {
		t.Fatal(err)
	}
	cg := r.CallGraph()
	return NewOrder(r, gs, func(i uint32) []uint32 { return cg[i] }, flow)
}

// TestFlowReuse checks NewOrder's reuse of an earlier Order's dataflow on
// programs whose second Sigma (k = 2 everywhere) splits contexts but
// leaves the events and the call graph as they were: the Flow of the
// first run is taken as it is, equals the dataflow computed anew, and the
// order answers as the one computed anew does; a Flow whose inputs differ
// in any part is not taken. One program's accesses are in functions with
// events, the other's in a closure without (whose sets are the empty one).
func TestFlowReuse(t *testing.T) {
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, program := range []string{"chan_handoff", "bench_parallel_writes_racy"} {
		t.Run(program, func(t *testing.T) {
			a, err := pointsto.LoadAnalyzer(pointsto.Config{Dir: dir, Patterns: []string{"./testdata/races/" + program}, Tests: true})
			if err != nil {
				t.Fatal(err)
			}
			first := order(t, a, pointsto.NewSigma(), nil)
			k2 := pointsto.NewSigma()
			k2.DefaultSite, k2.DefaultCalls = 2, 2
			fresh := order(t, a, k2, nil)
			if !first.flowIn.equal(&fresh.flowIn) {
				t.Fatal("k = 2 changes the events or the call graph: the test needs a program where it does not")
			}
			if !reflect.DeepEqual(first.flowSets, fresh.flowSets) {
				t.Fatal("equal flowInputs, but the dataflow differs: flowInputs misses something it reads")
			}
			want := answers(fresh)
			if len(want) == 0 {
				t.Fatal("no access of the program's own is asked about")
			}
			for _, tc := range []struct {
				name   string
				change func(in *flowInputs)
				reused bool
			}{
				{"same inputs", func(*flowInputs) {}, true},
				{"a call site's callees", func(in *flowInputs) {
					i := slices.IndexFunc(in.callees, func(c []uint32) bool { return len(c) > 0 })
					in.callees = slices.Clone(in.callees)
					in.callees[i] = nil
				}, false},
				{"an event no longer tracked", func(in *flowInputs) {
					i := slices.IndexFunc(in.events, func(e flowEvent) bool { return e.tracked })
					in.events = slices.Clone(in.events)
					in.events[i].tracked = false
				}, false},
				{"an event fewer", func(in *flowInputs) { in.events = in.events[:len(in.events)-1] }, false},
				{"other facts", func(in *flowInputs) { in.facts = nil }, false},
			} {
				t.Run(tc.name, func(t *testing.T) {
					flow := first.Flow()
					tc.change(&flow.in)
					o := order(t, a, k2, flow)
					if got := sameMap(o.atInstr, first.atInstr); got != tc.reused {
						t.Errorf("reused %v, want %v", got, tc.reused)
					}
					if !reflect.DeepEqual(o.flowSets, fresh.flowSets) {
						t.Error("the dataflow differs from the one computed anew")
					}
					if !slices.Equal(answers(o), want) {
						t.Error("the order answers otherwise than the one computed anew")
					}
				})
			}
		})
	}
}

// answers asks o whether each two accesses of the program's own functions
// (not the standard library's) are ordered, and apart, in each two of
// their goroutines.
func answers(o *Order) []bool {
	f := o.f
	var own []uint32
	for e := range f.Size(pointsto.DomE) {
		if fn := f.Func(f.AccessFunc(uint32(e))); fn != nil && fn.Pkg != nil && strings.Contains(fn.Pkg.Pkg.Path(), "testdata") {
			own = append(own, uint32(e))
		}
	}
	var out []bool
	for _, e1 := range own {
		for _, e2 := range own {
			p := o.Pair(f.Access(e1), f.Access(e2))
			for _, g1 := range o.gs.Of(f.AccessFunc(e1)) {
				for _, g2 := range o.gs.Of(f.AccessFunc(e2)) {
					out = append(out, p.Ordered(g1, g2), o.Apart(e1, g1, e2, g2))
				}
			}
		}
	}
	return out
}

// sameMap reports whether a and b are one map.
func sameMap[K comparable, V any](a, b map[K]V) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
