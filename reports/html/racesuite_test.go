package html

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/internal/racesuite"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/reports"
	"github.com/chromedp/chromedp"
)

// TestRaceSuitePages writes the report of Go's race tests (copied from
// GOROOT into a temporary module, analyzed at k = 1 as chordgo check
// -demand=false -tags race does) and checks it as issue 13 asks: every
// page under 1 MB, every link found, and in headless Chromium the index
// and a sample of the location and source pages load their style sheet
// with no console error, failed load or dialog. The time Write takes is
// logged (reports/html/BENCHMARKS.md has the measurement).
func TestRaceSuitePages(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes Go's race tests")
	}
	exe := browser(t)
	suite, err := racesuite.Prepare(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dr, err := demand.Analyze(pointsto.Config{Dir: suite.Dir, Patterns: []string{"."}, Tests: true, Tags: []string{"race"}}, demand.Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	rep := reports.Build(dr.PointsTo, dr.Races, reports.Options{MaxPaths: reports.DefaultMaxPaths})
	dir := filepath.Join(t.TempDir(), "report")
	start := time.Now()
	if err := Write(dir, rep, Options{Root: suite.Dir}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d locations, %d access pairs: written in %v", rep.Stats.Locations, rep.Stats.Reported, time.Since(start))
	pages := readPages(t, dir)
	if n := checkLinks(t, dir, pages); n < 1000 {
		t.Errorf("%d links checked; the suite's report should have thousands", n)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ctx, cancel = chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox)...)
	defer cancel()
	var probs problems
	var tab context.Context
	tab, cancel = chromedp.NewContext(ctx, chromedp.WithListener(probs.listen(&tab)))
	defer cancel()
	visited := openSample(t, tab, &probs, dir, pages, 10)
	t.Logf("%d pages of %d opened", visited, len(pages))
}
