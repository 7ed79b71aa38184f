package demand

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/cockroachdb/apd/v3"
)

func analyzer(t *testing.T, pattern string) *pointsto.Analyzer {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := pointsto.Load(pointsto.Config{Patterns: []string{pattern}, Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Errors) > 0 {
		t.Fatalf("load errors: %v", prog.Errors)
	}
	f, err := pointsto.Extract(prog)
	if err != nil {
		t.Fatal(err)
	}
	a, err := pointsto.NewAnalyzer(f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// racePositions describes each race by its two access positions.
func racePositions(res *Result) []string {
	f := res.PointsTo.Facts
	var out []string
	for _, race := range res.Races.Races {
		a, b := f.AccessPos(race.Accesses[0].E), f.AccessPos(race.Accesses[1].E)
		out = append(out, fmt.Sprintf("%s:%d:%d %s:%d:%d", filepath.Base(a.Filename), a.Line, a.Column, filepath.Base(b.Filename), b.Line, b.Column))
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
	for _, r := range want {
		if !slices.Contains(got, r) {
			t.Errorf("k = 3 reports %s, the loop does not", r)
		}
	}
	for _, r := range got {
		if !slices.Contains(want, r) {
			t.Errorf("the loop reports %s, which k = 3 proves absent", r)
		}
	}
	t.Logf("%d races; %d iterations", len(got), len(demand.Iterations))
}

// TestMaxContexts: a bound at the k = 1 estimate keeps every allocation
// site at k = 1 and says which ones it kept.
func TestMaxContexts(t *testing.T) {
	a := analyzer(t, "./testdata/races/naik_fig4_1")
	once, err := Run(a, Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
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
	if len(res.Capped) == 0 || len(res.Sigma.Sites) != 0 {
		t.Errorf("with the bound at the k = 1 estimate %d: capped %v, raised %v; want capped sites and none raised", limit, res.Capped, res.Sigma.Sites)
	}
	for _, it := range res.Iterations {
		if it.Estimate != once.Iterations[0].Estimate {
			t.Errorf("estimate %s passes the bound %d", it.Estimate, limit)
		}
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
