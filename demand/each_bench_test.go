package demand

import (
	"os"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
)

// BenchmarkEachCorpus analyzes the programs of testdata/races (one per
// main package and per package's tests) each in its own run at k = 1, as
// chordgo check -demand=false does, GOMAXPROCS programs at once: run it
// with -cpu 1,2 for the speedup of analyzing independent programs on two
// cores. CHORDGO_BENCH_PATTERN narrows the corpus (for profiling).
func BenchmarkEachCorpus(b *testing.B) {
	pattern := "./testdata/races/..."
	if p := os.Getenv("CHORDGO_BENCH_PATTERN"); p != "" {
		pattern = p
	}
	a := analyzerOf(b, pointsto.Config{Patterns: []string{pattern}, Tests: true})
	programs := 0
	for b.Loop() {
		programs = 0
		err := Each(a, Options{Once: true}, EachOptions{}, func(r *Result) error {
			programs++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(programs), "programs")
}
