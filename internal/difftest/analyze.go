package main

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
)

// maxContexts is chordgo check's default for -max-contexts.
const maxContexts = 5_000_000

// analysis is chordgo's verdict on the programs of a batch.
type analysis struct {
	Seconds float64
	// CPUSeconds is the child process's user and system time
	// (childAnalysis): on a loaded machine the wall time says little.
	CPUSeconds float64
	Races      map[string][]pair // program -> races with both accesses in its file
	// Slow has the programs that took more than slowLimit alone, in wall
	// and in CPU time, with their wall time; 0 if chordgo did not end
	// (analyzeInChild), and then they have no races.
	Slow map[string]float64
}

// analyze runs chordgo with the defaults of chordgo check (the demand
// loop) on the named programs of the batch in dir, all in one load: each
// is a main package and so its own program, whose roots are never paired
// with another's.
func analyze(dir string, names []string) (*analysis, error) {
	start := time.Now()
	var patterns []string
	for _, name := range names {
		patterns = append(patterns, "./"+name)
	}
	res, err := demand.Analyze(pointsto.Config{Dir: dir, Patterns: patterns}, demand.Options{MaxContexts: maxContexts})
	if err != nil {
		return nil, err
	}
	facts := res.PointsTo.Facts
	out := &analysis{Races: map[string][]pair{}}
	for _, race := range res.Races.Races {
		var lines [2]int
		var progs [2]string
		for k, acc := range race.Accesses {
			pos := facts.AccessPos(acc.E)
			lines[k] = pos.Line
			if filepath.Base(pos.Filename) == "main.go" {
				progs[k] = filepath.Base(filepath.Dir(pos.Filename))
			}
		}
		if progs[0] != "" && progs[0] == progs[1] {
			out.Races[progs[0]] = append(out.Races[progs[0]], newPair(lines[0], lines[1]))
		}
	}
	for name, ps := range out.Races {
		slices.SortFunc(ps, comparePairs)
		out.Races[name] = slices.Compact(ps)
	}
	out.Seconds = time.Since(start).Seconds()
	return out, nil
}
