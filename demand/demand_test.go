package demand

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"github.com/cockroachdb/apd/v3"
)

func analyzer(t testing.TB, pattern string) *pointsto.Analyzer {
	t.Helper()
	return analyzerOf(t, pointsto.Config{Patterns: []string{pattern}})
}

// analyzerOf loads cfg, in the repository's root unless cfg.Dir is set.
func analyzerOf(t testing.TB, cfg pointsto.Config) *pointsto.Analyzer {
	t.Helper()
	if cfg.Dir == "" {
		root, err := filepath.Abs("..")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Dir = root
	}
	a, err := pointsto.LoadAnalyzer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// firstRun loads cfg and runs the loop's first run alone.
func firstRun(t *testing.T, cfg pointsto.Config) (*pointsto.Analyzer, *Result) {
	t.Helper()
	a := analyzerOf(t, cfg)
	once, err := Run(a, Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	return a, once
}

// racePositions describes each race by its two access positions.
func racePositions(res *Result) []string {
	f := res.PointsTo.Facts
	var out []string
	for _, race := range res.Races.Races {
		out = append(out, describe(f, race))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Naik's Figure 4.1 (testdata/races/naik_fig4_1): at k = 1 all int arrays
// made at hi are one object, so p1 (v2[1] = 1, an array of a T's C) and p2
// (v5[1]++, the array of g[0]) seem to race. The loop raises k until the
// arrays of the two newInstance calls are told apart. The thesis predicts
// k(hi) = 3 and k(hc) = 2; in Go the context of an object made by a plain
// function also holds the call site (newInstance's), so the loop may go
// one step further: the test asks for at least the thesis's values.
func TestFig41(t *testing.T) {
	a := analyzer(t, "./testdata/races/naik_fig4_1")
	const p1p2 = "main.go:30:4 main.go:34:4"
	once, err := Run(a, Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(racePositions(once), p1p2) {
		t.Fatalf("at k = 1, the p1-p2 race %q is missing: %v", p1p2, racePositions(once))
	}
	res, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(racePositions(res), p1p2) {
		t.Errorf("after %d iterations, the p1-p2 race is still reported", len(res.Iterations))
	}
	for _, want := range []struct {
		line, k int
		name    string
	}{{14, 3, "hi"}, {17, 2, "hc"}} {
		found := false
		for h, k := range res.Sigma.Sites {
			if a.Facts.SitePos(h).Line == want.line {
				found = true
				if k < want.k {
					t.Errorf("k(%s) = %d, want at least %d", want.name, k, want.k)
				}
			}
		}
		if !found {
			t.Errorf("k(%s) was not raised", want.name)
		}
	}
	if n := len(res.Iterations); n < 2 {
		t.Errorf("%d iterations, want a refinement", n)
	}
}

// Refining a raced object alone is not enough when the object that holds
// it stays merged (testdata/races/demand_container: one abstract cache
// holds the maps of both constructor calls): the loop raises the holder's
// site too, and the false race goes.
func TestHolders(t *testing.T) {
	a := analyzer(t, "./testdata/races/demand_container")
	once, err := Run(a, Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(once.Races.Races) == 0 {
		t.Fatal("at k = 1 no race is reported: the test checks nothing")
	}
	res, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := racePositions(res); len(got) > 0 {
		t.Errorf("after %d iterations, races remain: %v", len(res.Iterations), got)
	}
	raised := map[string]bool{}
	for h, k := range res.Sigma.Sites {
		if k > 1 {
			raised[a.Facts.Site(h).Value.String()] = true
		}
	}
	for _, want := range []string{"new cache (complit)", "make map[string]int 0:int"} {
		if !raised[want] {
			t.Errorf("k not raised at %q; raised: %v", want, raised)
		}
	}
}

// A callback reached through a function value that a shared closure
// captured (testdata/races/demand_captured_callback): at k = 1 one closure
// object and one captured variable stand for both runners, so main seems
// to call the goroutine's callback. The loop raises the sites of the
// object the dynamic call runs in and of the variable it loads the
// function from, and the false race goes; where main's own callback
// writes too (demand_captured_callback_racy), the race stays.
func TestDynamicCallers(t *testing.T) {
	tests := []struct {
		dir    string
		stays  []string
		raised []string // sites whose k the loop must raise
	}{
		{"demand_captured_callback", nil, []string{"make closure (*runner).run$1 [t0]", "new func() (fn)"}},
		{"demand_captured_callback_racy", []string{"main.go:21:18 main.go:24:17"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			a, once := firstRun(t, pointsto.Config{Patterns: []string{"./testdata/races/" + tt.dir}})
			if len(once.Races.Races) <= len(tt.stays) {
				t.Fatalf("at k = 1 only %v is reported: the test checks nothing", racePositions(once))
			}
			res, err := Run(a, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := racePositions(res); !slices.Equal(got, tt.stays) {
				t.Errorf("after %d iterations, races %v, want %v", len(res.Iterations), got, tt.stays)
			}
			raised := map[string]bool{}
			for h, k := range res.Sigma.Sites {
				if k > 1 {
					raised[a.Facts.Site(h).Value.String()] = true
				}
			}
			for _, want := range tt.raised {
				if !raised[want] {
					t.Errorf("k not raised at %q; raised: %v", want, raised)
				}
			}
		})
	}
}

// The first run splits no site by test root, so two tests' caches are one
// object and each test's janitor seems to run the other test's callback
// (testdata/races/tests_own_callbacks); the loop splits by root the sites
// the remaining races need and those races go, while the race within
// TestB stays. A program without tests gets no site split by root.
func TestRootSplits(t *testing.T) {
	tests := []struct {
		name    string
		cfg     pointsto.Config
		split   bool     // some site is split by root at the end
		removed bool     // the loop removes some race of the first run
		stays   []string // races the loop must keep
	}{
		{"tests", pointsto.Config{Patterns: []string{"./testdata/races/tests_own_callbacks"}, Tests: true}, true, true,
			[]string{"main_test.go:22:2 main_test.go:19:26"}},
		{"main", pointsto.Config{Patterns: []string{"./testdata/races/demand_container"}}, false, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, once := firstRun(t, tt.cfg)
			if len(once.Sigma.Roots) > 0 {
				t.Errorf("the first run splits sites by root: %v", once.Sigma.Roots)
			}
			res, err := Run(a, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Sigma.Roots) > 0; got != tt.split {
				t.Errorf("sites split by root: %v, want some: %v", res.Sigma.Roots, tt.split)
			}
			first, last := racePositions(once), racePositions(res)
			if got := len(last) < len(first); got != tt.removed {
				t.Errorf("races %v after the first run's %v: removed some = %v, want %v", last, first, got, tt.removed)
			}
			for _, race := range tt.stays {
				if !slices.Contains(last, race) {
					t.Errorf("race %s removed; left: %v", race, last)
				}
			}
		})
	}
}

// TestAgreesWithK3 runs the loop and uniform k = 3 on all of
// testdata/races: the loop must report every race k = 3 reports and no
// race k = 3 proves absent.
func TestAgreesWithK3(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus several times")
	}
	a := analyzer(t, "./testdata/races/...")
	demand, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k3, err := Run(a, Options{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, want := racePositions(demand), racePositions(k3)
	f := demand.PointsTo.Facts
	disagree := map[string]bool{} // knownLoopDisagrees programs that disagree
	for _, r := range want {
		if !slices.Contains(got, r) {
			if p := knownLoopDisagree(f, k3.Races.Races, r); p != "" {
				disagree[p] = true
				continue
			}
			t.Errorf("k = 3 reports %s, the loop does not", r)
		}
	}
	for _, r := range got {
		if !slices.Contains(want, r) {
			if p := knownLoopDisagree(f, demand.Races.Races, r); p != "" {
				disagree[p] = true
				continue
			}
			t.Errorf("the loop reports %s, which k = 3 proves absent", r)
		}
	}
	for p, why := range knownLoopDisagrees {
		if !disagree[p] {
			t.Errorf("the loop agrees with k = 3 on %s now; remove it from knownLoopDisagrees (%s)", p, why)
		}
	}
	t.Logf("%d races; %d iterations", len(got), len(demand.Iterations))
}

// knownLoopDisagrees are testdata/races programs on which the loop, which
// refines only allocation sites where races remain, and k = 3 disagree,
// since abstract goroutines merged at k = 1 make mhp miss races or report
// false ones; races' knownWrong has each cause. The test fails when one
// agrees, so that the list only shrinks. Empty since the loop refines the
// objects a dynamic call of a racing access's function runs in and loads
// its function value from (dynamicCallers): WaitGroup.Go's captured f.
var knownLoopDisagrees = map[string]string{}

// knownLoopDisagree returns the knownLoopDisagrees program of a race among rs
// that describe describes as r, or "".
func knownLoopDisagree(f *pointsto.Facts, rs []races.Race, r string) string {
	for _, race := range rs {
		if describe(f, race) != r {
			continue
		}
		p := filepath.Base(filepath.Dir(f.AccessPos(race.Accesses[0].E).Filename))
		if _, ok := knownLoopDisagrees[p]; ok {
			return p
		}
	}
	return ""
}

// TestShortcuts checks the loop's shortcuts on testdata/races against what
// they stand for, run by run, with the loop's Sigmas: the funnel that
// checks only the previous run's races, with the previous run's order's
// dataflow to reuse, finds exactly the whole funnel's races, none of
// which is new; and a
// Sigma that sameAnalysis says changes nothing gives the same contexts and
// points-to when it is run.
func TestShortcuts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus several times")
	}
	a := analyzer(t, "./testdata/races/...")
	funnel := races.NewFinder(a.Facts, races.Options{})
	sigma := pointsto.NewSigma()
	seen := map[string]bool{}
	var checked map[[2]uint32]bool
	var flow *mhp.Flow
	for run := 1; ; run++ {
		r, err := a.Run(sigma)
		if err != nil {
			t.Fatal(err)
		}
		if run == 1 {
			checkNoChange(t, a, r)
		}
		whole, err := races.Find(r, races.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if checked != nil {
			part, err := funnel.FindAfter(r, checked, flow, 0)
			if err != nil {
				t.Fatal(err)
			}
			var want []races.Race
			for _, race := range whole.Races {
				if checked[[2]uint32{race.Accesses[0].E, race.Accesses[1].E}] {
					want = append(want, race)
				} else {
					t.Errorf("run %d: %s races, but not in run %d", run, describe(a.Facts, race), run-1)
				}
			}
			if !reflect.DeepEqual(part.Races, want) {
				t.Errorf("run %d: the funnel over run %d's races finds %d races, the whole funnel %d of them", run, run-1, len(part.Races), len(want))
			}
		}
		next := refine(r, whole, sigma, seen)
		if next == nil {
			t.Logf("%d runs", run)
			break
		}
		if sameAnalysis(r, next) {
			r2, err := a.Run(next)
			if err != nil {
				t.Fatal(err)
			}
			compareRuns(t, r, r2)
			t.Logf("run %d would repeat run %d", run+1, run)
			break
		}
		checked, flow, sigma = racePairs(whole), whole.Order.Flow(), next
	}
}

// On ctor_chain_racy (an object made three calls down, each function
// called from one site, raced by a goroutine and main) each raise
// lengthens the raced object's one context, which only renames contexts
// (running each next Sigma confirms it): the second run removes no race,
// and with patience 2 the third would be the last, so the loop stops
// after two runs, with the races of a loop without patience, which runs
// until Sigma stops changing. Figure 4.1 (TestFig41) is where an
// idle run must not end the loop: its third run removes the p1-p2 race.
func TestRenamedRunSkipped(t *testing.T) {
	a := analyzer(t, "./testdata/races/ctor_chain_racy")
	res, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Iterations); n != DefaultPatience {
		t.Errorf("%d runs, want %d", n, DefaultPatience)
	}
	all, err := Run(a, Options{Patience: -1})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(all.Iterations); n <= len(res.Iterations) {
		t.Errorf("without patience, %d runs, want more than %d", n, len(res.Iterations))
	}
	if got, want := racePositions(res), racePositions(all); len(got) == 0 || !slices.Equal(got, want) {
		t.Errorf("races %v, without patience %v", got, want)
	}
	funnel := races.NewFinder(a.Facts, races.Options{})
	sigma, seen := pointsto.NewSigma(), map[string]bool{}
	for run := 1; run <= DefaultPatience; run++ {
		r, err := a.Run(sigma)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := funnel.Find(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		next := refine(r, whole, sigma, seen)
		if next == nil || sameAnalysis(r, next) {
			t.Fatalf("run %d: no change of contexts after it", run)
		}
		if !a.Renames(r, next) {
			t.Errorf("run %d: the next Sigma does not rename contexts, says Renames", run)
		}
		checkRenamed(t, r, whole, next, a)
		sigma = next
	}
}

// checkRenamed runs next, which Renames says makes r's contexts again up
// to a renaming, and checks that its relations have r's sizes and that the
// whole funnel finds r's races: the same access pairs, on as many
// locations of the same sites, with as many goroutine pairs.
func checkRenamed(t *testing.T, r *pointsto.Result, whole *races.Result, next *pointsto.Sigma, a *pointsto.Analyzer) {
	t.Helper()
	r2, err := a.Run(next)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"reach", "pt", "hpt", "callEdge", "closureVal", "newObj", "callCtx", "subObj"} {
		if n1, n2 := r.Len(rel), r2.Len(rel); n1 != n2 {
			t.Errorf("renamed: %s has %d tuples, then %d", rel, n1, n2)
		}
	}
	whole2, err := races.Find(r2, races.Options{})
	if err != nil {
		t.Fatal(err)
	}
	summary := func(r *pointsto.Result, rr *races.Result) []string {
		var out []string
		for _, race := range rr.Races {
			sites := make([]uint32, len(race.Locations))
			for i, o := range race.Locations {
				sites[i] = r.Contexts.Site(o)
			}
			slices.Sort(sites)
			out = append(out, fmt.Sprint(describe(r.Facts, race), sites, len(race.Pairs)))
		}
		return out
	}
	if s1, s2 := summary(r, whole), summary(r2, whole2); !slices.Equal(s1, s2) {
		t.Errorf("renamed: races %v, then %v", s1, s2)
	}
}

// checkNoChange raises k for the sites and calls whose contexts are all
// empty, and for Figure 4.1's hi, whose are not: sameAnalysis must say
// the first changes nothing, which running it confirms, and not the second.
func checkNoChange(t *testing.T, a *pointsto.Analyzer, r *pointsto.Result) {
	t.Helper()
	sigma := r.Sigma
	empty := map[bool]map[uint32]bool{true: {}, false: {}} // site? -> id -> contexts all empty
	for _, rel := range []struct {
		name string
		site bool
	}{{"newObj", true}, {"callCtx", false}} {
		for tu := range r.Tuples(rel.name) {
			c, id := tu[0], tu[1]
			if ok, seen := empty[rel.site][id]; !seen || ok {
				empty[rel.site][id] = c == pointsto.Epsilon
			}
		}
	}
	noop := &pointsto.Sigma{Sites: map[uint32]int{}, Calls: map[uint32]int{}, DefaultSite: sigma.DefaultSite, DefaultCalls: sigma.DefaultCalls}
	for h, ok := range empty[true] {
		if ok {
			noop.Sites[h] = sigma.SiteK(h) + 2
		}
	}
	for i, ok := range empty[false] {
		if ok {
			noop.Calls[i] = sigma.CallK(i) + 2
		}
	}
	if len(noop.Sites) == 0 || len(noop.Calls) == 0 {
		t.Fatalf("no site (%d) or call (%d) with only empty contexts", len(noop.Sites), len(noop.Calls))
	}
	if !sameAnalysis(r, noop) {
		t.Errorf("raising k where every context is empty changes the analysis")
	}
	r2, err := a.Run(noop)
	if err != nil {
		t.Fatal(err)
	}
	compareRuns(t, r, r2)
	raised := false
	for h := range a.Facts.Size(pointsto.DomH) {
		p := a.Facts.SitePos(uint32(h))
		if a.Facts.Site(uint32(h)).Kind != pointsto.SiteSub && filepath.Base(filepath.Dir(p.Filename)) == "naik_fig4_1" && p.Line == 14 {
			hi := &pointsto.Sigma{Sites: map[uint32]int{uint32(h): 2}, Calls: map[uint32]int{}, DefaultSite: 1, DefaultCalls: 1}
			if sameAnalysis(r, hi) {
				t.Errorf("raising k(hi) of Figure 4.1 changes nothing, says sameAnalysis")
			}
			raised = true
		}
	}
	if !raised {
		t.Errorf("Figure 4.1's hi not found")
	}
}

// compareRuns checks that two runs made the same contexts and results.
func compareRuns(t *testing.T, r1, r2 *pointsto.Result) {
	t.Helper()
	if n1, n2 := r1.Contexts.Len(), r2.Contexts.Len(); n1 != n2 {
		t.Errorf("%d contexts, then %d", n1, n2)
		return
	}
	for c := range r1.Contexts.Len() {
		if e1, e2 := r1.Contexts.Elements(uint32(c)), r2.Contexts.Elements(uint32(c)); !slices.Equal(e1, e2) {
			t.Errorf("context %d: %v, then %v", c, e1, e2)
			return
		}
	}
	for _, rel := range []string{"newObj", "callCtx", "subObj", "reach", "pt", "hpt", "callEdge"} {
		var t1, t2 []uint32
		for tu := range r1.Tuples(rel) {
			t1 = append(t1, tu...)
		}
		for tu := range r2.Tuples(rel) {
			t2 = append(t2, tu...)
		}
		if !slices.Equal(t1, t2) {
			t.Errorf("%s: %d, then %d values", rel, len(t1), len(t2))
		}
	}
}

func describe(f *pointsto.Facts, race races.Race) string {
	a, b := f.AccessPos(race.Accesses[0].E), f.AccessPos(race.Accesses[1].E)
	return fmt.Sprintf("%s:%d:%d %s:%d:%d", filepath.Base(a.Filename), a.Line, a.Column, filepath.Base(b.Filename), b.Line, b.Column)
}

// TestMaxContexts: a bound at the k = 1 estimate keeps every allocation
// site at k = 1 and says which ones it kept.
func TestMaxContexts(t *testing.T) {
	tests := []struct {
		name string
		cfg  pointsto.Config
	}{
		{"k", pointsto.Config{Patterns: []string{"./testdata/races/naik_fig4_1"}}},
		// Splitting a site by root multiplies its objects by the tests
		// that reach it: capped too.
		{"roots", pointsto.Config{Patterns: []string{"./testdata/races/tests_own_callbacks"}, Tests: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, once := firstRun(t, tt.cfg)
			start, _, err := apd.NewFromString(once.Iterations[0].Estimate)
			if err != nil {
				t.Fatal(err)
			}
			limit, err := start.Int64()
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(a, Options{MaxContexts: limit})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Capped) == 0 {
				t.Errorf("with the bound at the k = 1 estimate %d no site is capped", limit)
			}
			// A capped site stays at k = 1, unsplit, unless a raise that
			// adds nothing to the estimate (a function with one
			// context) took it further: then one more raise, with its
			// split by root, passes the bound.
			est := newEstimator(a)
			for _, h := range res.Capped {
				if res.Sigma.SiteK(h) == 1 && !res.Sigma.Roots[h] {
					continue
				}
				more := res.Sigma.Clone()
				more.Sites[h], more.Roots[h] = res.Sigma.SiteK(h)+1, true
				if est.size(more).Cmp(start) <= 0 {
					t.Errorf("capped site %d has k = %d, split by root %v, and raising it stays within the bound %d", h, res.Sigma.SiteK(h), res.Sigma.Roots[h], limit)
				}
			}
			for _, it := range res.Iterations {
				if it.Estimate != once.Iterations[0].Estimate {
					t.Errorf("estimate %s passes the bound %d", it.Estimate, limit)
				}
			}
		})
	}
}

// TestEstimateExact: context counts multiply along call chains and pass
// int64; the estimate keeps them exact.
func TestEstimateExact(t *testing.T) {
	// One function called from ten call sites in itself: 10^n contexts of
	// length n.
	e := &estimator{callers: [][]uint32{slices.Repeat([]uint32{0}, 10)}, memo: map[[2]uint32]*apd.Decimal{}}
	got := e.contexts(0, 20).Text('f')
	if want := "100000000000000000000"; got != want {
		t.Errorf("contexts of length 20 = %s, want %s (10^20, past int64)", got, want)
	}
	if e.err != nil {
		t.Error(e.err)
	}
}

// TestStop ends the loop through Options.Context at each stopping point on
// Figure 4.1, which needs more than one run: stopped before the first run
// completes there is nothing to report; stopped after it, the first run's
// races are, which include the final run's: the last result Completed
// received, as the stopped result keeps no run's analysis.
func TestStop(t *testing.T) {
	a := analyzer(t, "./testdata/races/naik_fig4_1")
	once, err := Run(a, Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Iterations) < 2 {
		t.Fatalf("%d iterations, want a refinement to stop", len(full.Iterations))
	}
	budget := errors.New("budget ran out")
	for _, tc := range []struct {
		name     string
		stopRuns int // cancel once this many runs completed; -1: never
		want     *Result
	}{
		{"before the first run", 0, nil},
		{"after the first run", 1, once},
		{"never", -1, full},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.stopRuns == 0 {
				cancel(budget)
			}
			var completed []*Result
			res, err := Run(a, Options{Context: ctx, Completed: func(r *Result) {
				completed = append(completed, r)
				if len(completed) == tc.stopRuns {
					cancel(budget)
				}
			}})
			if tc.want == nil {
				if res != nil || !errors.Is(err, budget) {
					t.Fatalf("Run = %v, %v; want no result and an error wrapping %q", res, err, budget)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]error{true: budget, false: nil}[tc.stopRuns > 0]; res.Stopped != want {
				t.Errorf("Stopped = %v, want %v", res.Stopped, want)
			}
			if len(res.Iterations) != len(tc.want.Iterations) || len(completed) != len(res.Iterations) {
				t.Fatalf("%d iterations and %d completed runs, want %d", len(res.Iterations), len(completed), len(tc.want.Iterations))
			}
			reported := res
			if res.Stopped != nil {
				if res.PointsTo != nil || res.Races != nil {
					t.Error("the stopped result keeps the last run's analysis, which Completed has")
				}
				reported = completed[len(completed)-1]
			}
			if got, want := racePositions(reported), racePositions(tc.want); !slices.Equal(got, want) {
				t.Errorf("races %v, want %v", got, want)
			}
			if got, want := reported.Races.Stats, once.Races.Stats; got.Original != want.Original || got.Unlocked != want.Unlocked {
				t.Errorf("funnel stats %+v, want the first run's %+v", got, want)
			}
		})
	}
}

// TestEach runs each program of programs_share_lib (the tests of packages
// a and b, two processes) in its own loop: b's test races within its
// process, a's test does not, and no race pairs the two. The result does
// not depend on the number of workers. A budget that ends after the first
// program's first run leaves that program's result and names the second
// as not analyzed.
func TestEach(t *testing.T) {
	a := analyzerOf(t, pointsto.Config{Patterns: []string{"./testdata/races/programs_share_lib/..."}, Tests: true})
	if got := a.Facts.Prog.Programs(); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("programs %v, want [0 1]", got)
	}
	budget := errors.New("budget ran out")
	for _, tc := range []struct {
		name        string
		workers     int
		stop        bool // end the budget after the first completed run
		programs    []int
		races       []string
		notAnalyzed []int
	}{
		{"one worker", 1, false, []int{0, 1}, []string{"b_test.go:16:10 b_test.go:13:5"}, nil},
		{"two workers", 2, false, []int{0, 1}, []string{"b_test.go:16:10 b_test.go:13:5"}, nil},
		{"stopped after program 0", 1, true, []int{0}, nil, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var completed, programs []int
			var positions []string
			last := map[int]*Result{} // by program: the last completed run
			err := Each(a, Options{Context: ctx, Completed: func(r *Result) {
				completed = append(completed, r.Program)
				last[r.Program] = r
				if tc.stop {
					cancel(budget)
				}
			}}, EachOptions{Workers: tc.workers}, func(r *Result) error {
				programs = append(programs, r.Program)
				if r.Stopped != nil {
					r = last[r.Program]
				}
				positions = append(positions, racePositions(r)...)
				return nil
			})
			var na *NotAnalyzedError
			if tc.notAnalyzed != nil {
				if !errors.As(err, &na) || !errors.Is(err, budget) || !slices.Equal(na.Programs, tc.notAnalyzed) {
					t.Errorf("Each = %v, want programs %v not analyzed, wrapping %q", err, tc.notAnalyzed, budget)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			slices.Sort(programs)
			slices.Sort(completed)
			if !slices.Equal(programs, tc.programs) || !slices.Equal(slices.Compact(completed), tc.programs) {
				t.Errorf("programs %v, completed runs of %v; want %v", programs, completed, tc.programs)
			}
			if !slices.Equal(positions, tc.races) {
				t.Errorf("races %v, want %v", positions, tc.races)
			}
		})
	}
}

// TestBound: a run's estimate is bounded by MaxContexts and by MaxGrowth
// times the first run's, whichever is lower; DefaultMaxGrowth when
// MaxGrowth is 0, none when it is negative.
func TestBound(t *testing.T) {
	first := apd.New(1000, 0)
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "2000"},
		{Options{MaxGrowth: 3}, "3000"},
		{Options{MaxGrowth: -1}, ""},
		{Options{MaxGrowth: -1, MaxContexts: 1500}, "1500"},
		{Options{MaxContexts: 1500}, "1500"},
		{Options{MaxContexts: 2500}, "2000"},
	}
	for _, tt := range tests {
		got := ""
		if b := bound(first, tt.opts); b != nil {
			got = b.Text('f')
		}
		if got != tt.want {
			t.Errorf("bound(1000, MaxContexts %d, MaxGrowth %d) = %q, want %q", tt.opts.MaxContexts, tt.opts.MaxGrowth, got, tt.want)
		}
	}
}
