package races_test

import (
	"testing"
	"time"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// BenchmarkParallelStage runs the race funnel on testdata/parallel/store at
// k = 1 (48 tests, each starting goroutines that call one store's
// methods: many access pairs, each in many goroutine pairs and on many
// objects) and reports the parallel stage's time per run as
// parallel-ns/op; ns/op is the whole funnel's. Each run builds a new
// Finder, so nothing is kept from the last.
func BenchmarkParallelStage(b *testing.B) {
	a, err := analyzer("./testdata/parallel/store")
	if err != nil {
		b.Fatal(err)
	}
	r, err := a.Run(pointsto.NewSigma())
	if err != nil {
		b.Fatal(err)
	}
	var parallel time.Duration
	runs := 0
	for b.Loop() {
		res, err := races.NewFinder(a.Facts, races.Options{}).Find(r, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.Escaping == res.Stats.Parallel || res.Stats.Parallel == 0 {
			b.Fatalf("the parallel stage kept %d of %d pairs: the input no longer exercises it", res.Stats.Parallel, res.Stats.Escaping)
		}
		parallel += res.Stats.Times["parallel"]
		runs++
	}
	b.ReportMetric(float64(parallel.Nanoseconds())/float64(runs), "parallel-ns/op")
}
