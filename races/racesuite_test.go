package races

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chordgo/chordgo/internal/racesuite"
	"github.com/chordgo/chordgo/pointsto"
)

// Floors for the scoreboard: raise them as results improve.
const (
	minRecall         = 0.97
	maxFalseAlarmRate = 0.09
)

// TestRaceSuite runs the funnel over Go's race-detector tests, copied into
// a temporary module, all roots in one run, and scores the races by the
// roots both accesses are reached from.
func TestRaceSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the race suite with the standard library")
	}
	suite, err := racesuite.Prepare(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, err := pointsto.LoadAnalyzer(pointsto.Config{Dir: suite.Dir, Patterns: []string{"."}, Tests: true, Tags: []string{"race"}})
	if err != nil {
		t.Fatal(err)
	}
	facts := a.Facts
	r, err := a.Run(pointsto.NewSigma())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Find(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var scored []racesuite.Race
	example := map[string]string{} // root -> one race within it
	gs := res.Goroutines
	for _, race := range res.Races {
		for _, p := range race.Pairs {
			var sr racesuite.Race
			for k := range 2 {
				for _, root := range gs.Roots(p[k]) {
					sr.Roots[k] = append(sr.Roots[k], facts.Func(gs.List[root].Func).Name())
				}
			}
			for _, root := range sr.Roots[0] {
				if slices.Contains(sr.Roots[1], root) && example[root] == "" {
					a, b := facts.AccessPos(race.Accesses[0].E), facts.AccessPos(race.Accesses[1].E)
					example[root] = fmt.Sprintf("%s:%d:%d and %s:%d:%d", filepath.Base(a.Filename), a.Line, a.Column, filepath.Base(b.Filename), b.Line, b.Column)
				}
			}
			scored = append(scored, sr)
		}
	}
	board := suite.Score(scored)
	for _, name := range board.Alarms {
		t.Logf("false alarm %s: %s", name, example[name])
	}
	t.Logf("stats: %+v", res.Stats)
	t.Logf("%s", board)
	if board.Recall() < minRecall {
		t.Errorf("recall %.3f below the floor %.3f", board.Recall(), minRecall)
	}
	if board.FalseAlarmRate() > maxFalseAlarmRate {
		t.Errorf("false alarm rate %.3f above the ceiling %.3f", board.FalseAlarmRate(), maxFalseAlarmRate)
	}
}
