package reports

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"
)

// BenchmarkWriteChain builds and writes the report of chainProgram(100):
// one location, 15,050 access pairs, paths up to 100 calls long.
func BenchmarkWriteChain(b *testing.B) {
	r, res := analyze(b, writeModule(b, chainProgram(100)))
	for _, bc := range []struct {
		format   string
		maxPaths int
	}{{"text", DefaultMaxPaths}, {"text", 0}, {"json", DefaultMaxPaths}, {"json", 0}} {
		b.Run(fmt.Sprintf("%s/paths=%d", bc.format, bc.maxPaths), func(b *testing.B) {
			var out countingWriter
			paths := 0
			for b.Loop() {
				rep := Build(r, res, Options{MaxPaths: bc.maxPaths})
				write := rep.WriteText
				if bc.format == "json" {
					write = rep.WriteJSON
				}
				if err := write(io.Writer(&out)); err != nil {
					b.Fatal(err)
				}
				paths += rep.b.paths.computed
			}
			b.ReportMetric(float64(out.n)/float64(b.N), "bytes/op")
			b.ReportMetric(float64(paths)/float64(b.N), "paths/op")
		})
	}
}

// BenchmarkWriteCorpus builds and writes the report of testdata/races (all
// its programs loaded and analyzed together at k = 1, outside the timing)
// in each format, with call paths for the first DefaultMaxPaths pairs of
// each location and for all of them.
func BenchmarkWriteCorpus(b *testing.B) {
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	r, res := analyzePatterns(b, root, "./testdata/races/...")
	for _, maxPaths := range []int{DefaultMaxPaths, 0} {
		for _, format := range []string{"text", "json", "sarif"} {
			b.Run(fmt.Sprintf("%s/paths=%d", format, maxPaths), func(b *testing.B) {
				var out countingWriter
				for b.Loop() {
					rep := Build(r, res, Options{MaxPaths: maxPaths, Root: root})
					write := map[string]func(io.Writer) error{
						"text": rep.WriteText, "json": rep.WriteJSON,
						"sarif": func(w io.Writer) error { return rep.WriteSARIF(w, "bench") },
					}[format]
					if err := write(&out); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(out.n)/float64(b.N), "bytes/op")
				b.ReportMetric(float64(len(res.Races)), "pairs")
			})
		}
	}
}
