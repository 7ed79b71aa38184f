package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"github.com/chordgo/chordgo/reports"
)

// runCheck implements "chordgo check": the whole analysis, with races
// printed as text or JSON. Exit status: 0 no race, 1 races, 2 could not
// analyze (or some package failed to load).
func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	lf := addLoadFlags(fs)
	jsonOut := fs.Bool("json", false, "print the report as JSON (schema: go doc github.com/chordgo/chordgo/reports)")
	stats := fs.Bool("stats", false, "print the pairs left after each stage of the funnel and the time of each stage to standard error")
	std := fs.Bool("std", false, "also report races whose accesses are all in the standard library or other dependencies")
	noEscape := fs.Bool("escape", true, "drop pairs on objects that no other goroutine can reach (false: keep them, for diagnosis)")
	noMHP := fs.Bool("mhp", true, "drop pairs ordered by happens-before (false: keep them, for diagnosis)")
	noLocks := fs.Bool("locks", true, "drop pairs protected by a common lock (false: keep them, for diagnosis)")
	k := fs.Int("k", 0, "run once with the same `k` for every site, for comparison (0: start at 1 and raise k on demand)")
	onDemand := fs.Bool("demand", true, "raise k per allocation site where races remain, until they stop falling away (false: k = 1 once)")
	maxPaths := fs.Int("paths", reports.DefaultMaxPaths, "show call paths for the first `n` access pairs of each location, the others one line each (0: all)")
	maxContexts := fs.Int64("max-contexts", 5_000_000, "do not raise k where the estimated number of abstract contexts and objects would pass `n` (0: no bound)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo check [-json] [-stats] [-tests=true] [-tags T] [-run RE] [-std] [packages]\n\n"+
			"Loads the packages (patterns as go vet takes them; default \".\"), analyzes the\n"+
			"whole program from its roots (main, tests, benchmarks, fuzz targets, examples),\n"+
			"and reports each pair of accesses that may race, with at least one of them in\n"+
			"the packages named.\n\n"+
			"Exit status: 0 no race, 1 races reported, 2 the program could not be analyzed\n"+
			"(or a package failed to load; the rest is analyzed and reported).\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "chordgo check: %v\n", err)
		return 2
	}
	if *maxPaths < 0 {
		return fail(fmt.Errorf("-paths %d: want 0 (all) or more", *maxPaths))
	}
	prog, err := lf.load(fs.Args())
	if err != nil {
		return fail(err)
	}
	t := time.Now()
	facts, err := pointsto.Extract(prog)
	if err != nil {
		return fail(err)
	}
	factsTime := time.Since(t)
	a, err := pointsto.NewAnalyzer(facts)
	if err != nil {
		return fail(err)
	}
	dr, err := demand.Run(a, demand.Options{
		K: *k, Once: !*onDemand, MaxContexts: *maxContexts,
		Races: races.Options{NoEscape: !*noEscape, NoMHP: !*noMHP, NoLocks: !*noLocks, Std: *std},
	})
	if err != nil {
		return fail(err)
	}
	t = time.Now()
	rep := reports.Build(dr.PointsTo, dr.Races, reports.Options{MaxPaths: *maxPaths, Timings: *stats})
	rep.Stats.Demand = reports.DemandStats(dr)
	for name, d := range map[string]time.Duration{
		"load": prog.LoadTime, "ssa": prog.BuildTime, "facts": factsTime,
		"pointsto-ci": a.CITime, "report": time.Since(t),
	} {
		rep.Stats.Seconds[name] = d.Seconds()
	}
	for _, e := range prog.Errors {
		rep.Errors = append(rep.Errors, e.Error())
	}
	if *jsonOut {
		err = rep.WriteJSON(os.Stdout)
	} else {
		err = rep.WriteText(os.Stdout)
	}
	if err != nil {
		return fail(err)
	}
	if *stats {
		if err := rep.WriteStats(os.Stderr); err != nil {
			return fail(err)
		}
	}
	switch {
	case len(prog.Errors) > 0:
		return 2
	case rep.Stats.Pairs.Ultimate > 0:
		return 1
	}
	return 0
}
