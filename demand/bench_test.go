package demand_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/internal/racesuite"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/reports"
)

// BenchmarkRaceSuiteCheck is chordgo check -json -tags race on Go's race
// tests, end to end: load, SSA, facts, points-to, the funnel, the demand
// loop and the report. WholeSuite includes io_test.go (net/http,
// crypto/tls); NoIO leaves it out (its two tests are excluded from the
// scoreboard). Each runs with the demand loop and once at k = 1.
func BenchmarkRaceSuiteCheck(b *testing.B) {
	for _, bc := range []struct {
		name string
		io   bool
		opts demand.Options
	}{
		{"NoIO/k1", false, demand.Options{Once: true}},
		{"NoIO/demand", false, demand.Options{MaxContexts: 5_000_000}},
		{"WholeSuite/k1", true, demand.Options{Once: true}},
		{"WholeSuite/demand", true, demand.Options{MaxContexts: 5_000_000}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchCheck(b, bc.io, bc.opts) })
	}
}

func benchCheck(b *testing.B, withIO bool, opts demand.Options) {
	suite, err := racesuite.Prepare(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if !withIO {
		if err := os.Remove(filepath.Join(suite.Dir, "io_test.go")); err != nil {
			b.Fatal(err)
		}
	}
	var phases = map[string]time.Duration{}
	var res *demand.Result
	for b.Loop() {
		prog, err := pointsto.Load(pointsto.Config{Dir: suite.Dir, Patterns: []string{"./..."}, Tests: true, Tags: []string{"race"}})
		if err != nil {
			b.Fatal(err)
		}
		t := time.Now()
		f, err := pointsto.Extract(prog)
		if err != nil {
			b.Fatal(err)
		}
		phases["facts"] += time.Since(t)
		phases["load"] += prog.LoadTime
		phases["ssa"] += prog.BuildTime
		a, err := pointsto.NewAnalyzer(f)
		if err != nil {
			b.Fatal(err)
		}
		phases["ci"] += a.CITime
		t = time.Now()
		res, err = demand.Run(a, opts)
		if err != nil {
			b.Fatal(err)
		}
		phases["loop"] += time.Since(t)
		t = time.Now()
		if err := reports.Build(res.PointsTo, res.Races, reports.Options{MaxPaths: reports.DefaultMaxPaths}).WriteJSON(discard{}); err != nil {
			b.Fatal(err)
		}
		phases["report"] += time.Since(t)
	}
	n := float64(b.N)
	for name, d := range phases {
		b.ReportMetric(d.Seconds()/n, name+"-s")
	}
	b.ReportMetric(float64(len(res.Iterations)), "iterations")
	b.ReportMetric(float64(len(res.Races.Races)), "races")
	last := res.Iterations[len(res.Iterations)-1]
	raised := 0
	for k, sites := range last.SitesByK {
		if k > 1 {
			raised += sites
		}
	}
	b.ReportMetric(float64(raised), "sites-k>1")
	b.ReportMetric(float64(last.Contexts), "contexts")
	for name, d := range res.Races.Stats.Times {
		b.Logf("funnel stage %s (first run): %v", name, d)
	}
	b.Logf("stats %+v", res.Races.Stats)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
