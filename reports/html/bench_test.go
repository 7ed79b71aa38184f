package html

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/chordgo/chordgo/reports"
)

// BenchmarkWriteCorpus builds and writes the HTML report of testdata/races
// (the analysis, at k = 1, is outside the timing) into one directory, as
// a repeated chordgo check -html DIR does; it reports the files and bytes
// written.
func BenchmarkWriteCorpus(b *testing.B) {
	a := analyzeCorpus(b)
	for _, maxPaths := range []int{reports.DefaultMaxPaths, 0} {
		b.Run(fmt.Sprint("paths=", maxPaths), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "report")
			for b.Loop() {
				if err := Write(dir, a.report(maxPaths), Options{Root: repoRoot(b)}); err != nil {
					b.Fatal(err)
				}
			}
			files, bytes := 0, int64(0)
			err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				info, err := d.Info()
				files++
				bytes += info.Size()
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(files), "files")
			b.ReportMetric(float64(bytes), "bytes")
		})
	}
}
