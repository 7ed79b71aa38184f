package main

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// An outcome compares what the race detector saw in one program with what
// chordgo reports.
type outcome struct {
	src      string
	detected map[pair]int // races the detector reported, with the runs that saw each
	other    int          // detector reports not placed in the program's file
	found    []pair       // chordgo's races
	misses   []pair       // detected, not found: soundness failures
	unseen   []pair       // found, never detected (false alarms, as an indication)
	fail     string       // the program did not compile, or a run failed
	compiled bool
	analyzed bool
}

// analyzeFunc runs chordgo on the named programs of the batch in dir.
type analyzeFunc func(dir string, names []string) (*analysis, error)

// evaluate writes the programs into dir as a batch, builds them with
// -race, runs each runs times (a run longer than timeout fails), analyzes those that compiled with chordgo
// and compares. Outcomes are in the order of srcs.
func evaluate(dir string, srcs []string, runs int, timeout time.Duration, run analyzeFunc) ([]*outcome, *analysis, error) {
	b, err := writeBatch(dir, srcs)
	if err != nil {
		return nil, nil, err
	}
	failed, err := b.buildRace()
	if err != nil {
		return nil, nil, err
	}
	outs := make([]*outcome, len(srcs))
	var built []string
	for i, name := range b.names {
		outs[i] = &outcome{src: srcs[i]}
		if msg, ok := failed[name]; ok {
			outs[i].fail = "does not compile:\n" + msg
			continue
		}
		outs[i].compiled = true
		built = append(built, name)
	}
	if len(built) == 0 {
		return outs, &analysis{Races: map[string][]pair{}}, nil
	}
	seen := b.detect(built, runs, timeout)
	an, err := run(dir, built)
	if err != nil {
		return nil, nil, err
	}
	for i, name := range b.names {
		o := outs[i]
		d := seen[name]
		if d == nil {
			continue
		}
		o.detected, o.other, o.fail = d.runs, d.other, d.fail
		o.found = an.Races[name]
		if secs, ok := an.Slow[name]; ok && secs == 0 {
			continue // chordgo did not end
		}
		o.analyzed = true
		for _, p := range slices.SortedFunc(maps.Keys(o.detected), comparePairs) {
			if !slices.Contains(o.found, p) {
				o.misses = append(o.misses, p)
			}
		}
		for _, p := range o.found {
			if o.detected[p] == 0 {
				o.unseen = append(o.unseen, p)
			}
		}
	}
	return outs, an, nil
}

// describe says what went wrong with a program, "" if nothing.
func (o *outcome) describe() string {
	switch {
	case o.fail != "":
		return o.fail
	case len(o.misses) > 0:
		return fmt.Sprintf("missed races (lines) %v; the detector saw %v, chordgo found %v", o.misses, o.detected, o.found)
	}
	return ""
}
