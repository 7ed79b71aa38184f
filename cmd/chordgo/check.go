package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"github.com/chordgo/chordgo/reports"
	"github.com/chordgo/chordgo/reports/html"
)

// Exit statuses of chordgo check.
const (
	exitClean   = 0 // no race
	exitRaces   = 1 // races reported (after suppressions, -baseline, -new-from-rev)
	exitFailed  = 2 // could not analyze, or a package failed to load
	exitStopped = 3 // a budget ran out (or SIGINT) before the first complete run of some program, and no race
)

// runCheck implements "chordgo check": the whole analysis, with races
// printed as text or JSON.
func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	lf := addLoadFlags(fs)
	jsonOut := fs.Bool("json", false, "print the report as JSON (schema: go doc github.com/chordgo/chordgo/reports)")
	htmlDir := fs.String("html", "", "also write the report as HTML pages into `dir` (created if missing; empty, or holding an earlier report)")
	stats := fs.Bool("stats", false, "print the pairs left after each stage of the funnel and the time of each stage to standard error")
	af := addAnalysisFlags(fs)
	af.addShardFlag(fs)
	noEscape := fs.Bool("escape", true, "drop pairs on objects that no other goroutine can reach (false: keep them, for diagnosis)")
	noInstance := fs.Bool("instance", true, "drop the goroutine pairs (g, g) on objects no two instances of goroutine g can reach (false: keep them, for diagnosis)")
	noMHP := fs.Bool("mhp", true, "drop pairs ordered by happens-before (false: keep them, for diagnosis)")
	noLocks := fs.Bool("locks", true, "drop pairs protected by a common lock (false: keep them, for diagnosis)")
	budget := addBudgetFlags(fs)
	review := addReviewFlags(fs)
	profile := addProfileFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo check [-json] [-html DIR] [-stats] [-tests=true] [-tags T] [-run RE] [-std] [-k N]\n"+
			"\t[-demand=true] [-max-contexts N] [-paths N] [-timeout D] [-mem SIZE] [-allow-empty] [-shard I/N]\n"+
			"\t[-escape=true] [-instance=true] [-mhp=true] [-locks=true] [-sarif FILE] [-baseline FILE]\n"+
			"\t[-write-baseline FILE] [-new-from-rev REV] [-cpuprofile FILE] [-memprofile FILE] [packages]\n\n"+
			"Loads the packages (patterns as go vet takes them; default \".\"), analyzes each\n"+
			"program (a main package, a package's tests) from its roots (main, tests,\n"+
			"benchmarks, fuzz targets, examples), several programs at once, and reports each\n"+
			"pair of accesses that may race, with at least one of them in the packages named\n"+
			"(standard-library packages too, when named). -shard I/N analyzes a share of the\n"+
			"programs; chordgo merge joins the shards' -json reports into the whole report.\n\n"+
			"When -timeout, -mem or an interrupt stops the analysis, the races of each\n"+
			"program's last completed run are reported: they include every race a longer run\n"+
			"would report; the programs without a completed run are named.\n\n"+
			"A race with an access on a line that ends with a //chordgo:ignore <reason>\n"+
			"comment, or below such a comment alone on its line, is not reported; -baseline\n"+
			"and -new-from-rev leave out more.\n\n"+
			"Exit status: 0 no race reported, 1 races reported, 2 the program could not be\n"+
			"analyzed (a //chordgo:ignore without a reason, an unknown -new-from-rev revision,\n"+
			"a package failed to load: the rest is analyzed and reported; or no root runs\n"+
			"the packages named, see -allow-empty), 3 a budget ran out or an interrupt came\n"+
			"before the first complete run of some program and no race was reported.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := failer("check")
	af.races = races.Options{NoEscape: !*noEscape, NoInstance: !*noInstance, NoMHP: !*noMHP, NoLocks: !*noLocks}
	if *htmlDir != "" {
		if err := html.CheckDir(*htmlDir); err != nil {
			return fail(err)
		}
	}
	if err := review.start(); err != nil {
		return fail(err)
	}
	ctx, stop, err := budget.start()
	if err != nil {
		return fail(err)
	}
	defer stop()
	af.mayStart = budget.mayStart
	if err := profile.start(); err != nil {
		return fail(err)
	}
	rep, prog, code := af.analyze(ctx, "check", lf, fs.Args(), *stats, review)
	if err := profile.stop(); err != nil {
		return fail(err)
	}
	if rep == nil {
		return code
	}
	if *jsonOut {
		err = rep.WriteJSON(os.Stdout)
	} else {
		err = rep.WriteText(os.Stdout)
	}
	if err != nil {
		return fail(err)
	}
	if *htmlDir != "" {
		if err := writeHTML(*htmlDir, rep); err != nil {
			return fail(err)
		}
	}
	if *stats {
		if err := rep.WriteStats(os.Stderr); err != nil {
			return fail(err)
		}
	}
	if err := review.finish(rep); err != nil {
		return fail(err)
	}
	switch {
	case len(prog.Errors) > 0:
		return exitFailed
	case rep.Stats.Reported > 0:
		return exitRaces
	}
	return code
}

// writeHTML writes the HTML report into dir, file names relative to the
// working directory. The races are described again: a Report is written
// once per format, each time one race at a time.
func writeHTML(dir string, rep *reports.Report) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	return html.Write(dir, rep, html.Options{Root: wd})
}

// defaultMaxContexts is -max-contexts's default, also the bound of the
// demand loop that facts -demand runs.
const defaultMaxContexts = 5_000_000

// analysisFlags are the flags that say how to analyze, shared by the
// commands that report races (check, confirm, racefree).
type analysisFlags struct {
	std, onDemand, allowEmpty *bool
	k, maxPaths               *int
	maxContexts               *int64
	shard                     shard
	races                     races.Options // the stages turned off, for check's diagnosis flags
	// mayStart says whether one more program may be analyzed beside those
	// in progress (the memory budget); nil: always, up to GOMAXPROCS.
	mayStart func() bool
	// keep, if set, receives each completed run's result, one at a time,
	// as its report is built: racefree plans from the last one of each
	// program (racefree.Planner.Add).
	keep func(*demand.Result)
}

func addAnalysisFlags(fs *flag.FlagSet) *analysisFlags {
	af := &analysisFlags{
		std:         fs.Bool("std", false, "also report races whose accesses are all in the standard library or other dependencies"),
		k:           fs.Int("k", 0, "run once with the same `k` for every site, for comparison (0: start at 1 and raise k on demand)"),
		onDemand:    fs.Bool("demand", true, "raise k per allocation site where races remain, until they stop falling away (false: k = 1 once)"),
		maxPaths:    fs.Int("paths", reports.DefaultMaxPaths, "show call paths for the first `n` access pairs of each location, the others one line each (0: all)"),
		maxContexts: fs.Int64("max-contexts", defaultMaxContexts, "do not raise k where the estimated number of abstract contexts and objects would pass `n` (0: no bound)"),
		allowEmpty:  fs.Bool("allow-empty", false, "accept a run in which no root (main, test, benchmark, fuzz target, example) runs code of the packages named: report it clean instead of failing"),
	}
	return af
}

// addShardFlag adds -shard, for the commands whose result over a share of
// the programs means something alone (not racefree: a function proven
// race-free in one share may race in another).
func (af *analysisFlags) addShardFlag(fs *flag.FlagSet) {
	fs.Var(&af.shard, "shard", "analyze only share `I/N` (1 <= I <= N) of the programs (main packages, packages' tests), chosen by a hash of each program's package path; chordgo merge joins the shards' -json reports")
}

// analyze runs the pipeline on the packages until it completes or ctx
// ends, each program (pointsto.Root.Program) in its own demand loop,
// several at once (demand.Each), and merges the reports of the programs'
// last completed runs, with review's filters applied if it is not nil.
// Without a report (nil), it has said why on standard error and code is
// the exit status; with one, code is exitStopped if a budget kept some
// program from a completed run, else exitClean.
func (af *analysisFlags) analyze(ctx context.Context, cmd string, lf *loadFlags, patterns []string, timings bool, review *reviewFlags) (rep *reports.Report, prog *pointsto.Program, code int) {
	fail := func(err error) (*reports.Report, *pointsto.Program, int) {
		printError(cmd, err)
		return nil, prog, exitFailed
	}
	if *af.maxPaths < 0 {
		return fail(fmt.Errorf("-paths %d: want 0 (all) or more", *af.maxPaths))
	}
	if *af.k < 0 {
		return fail(fmt.Errorf("-k %d: want 0 (raise k on demand) or a positive k", *af.k))
	}
	if *af.maxContexts < 0 {
		return fail(fmt.Errorf("-max-contexts %d: want 0 (no bound) or a positive bound", *af.maxContexts))
	}
	if af.shard.n > 0 && review != nil && (*review.writeBaseline != "" || *review.sarif != "") {
		return fail(errors.New("-shard: -write-baseline and -sarif need every program's races: write them from the unsharded run"))
	}
	opts := af.races
	opts.Std = *af.std
	an := &analysis{done: make(chan struct{}), shard: af.shard, progress: newProgress(os.Stderr), keep: af.keep,
		reports: map[int]*reports.Report{}, current: map[int]*reports.Report{}}
	defer an.progress.stop()
	an.repOpts = reports.Options{MaxPaths: *af.maxPaths, Timings: timings, Shard: af.shard.n > 0}
	if review != nil {
		an.loaded = review.loaded
	}
	go an.run(ctx, lf, patterns, *af.allowEmpty, demand.Options{
		K: *af.k, Once: !*af.onDemand, MaxContexts: *af.maxContexts, Races: opts,
	}, demand.EachOptions{MayStart: af.mayStart})
	select {
	case <-an.done:
	case <-ctx.Done():
	}
	an.mu.Lock()
	an.taken = true
	prog, runErr, finished, phase, loopStopped := an.prog, an.err, an.finished, an.phase, an.stopped
	factsTime, ciTime, reportTime := an.factsTime, an.ciTime, an.reportTime
	// The programs done, and the last completed run of each in progress.
	var reps []*reports.Report
	var missing []int
	for _, n := range an.programs {
		if r := an.reports[n]; r != nil {
			reps = append(reps, r)
		} else if r := an.current[n]; r != nil {
			reps = append(reps, r)
		} else {
			missing = append(missing, n)
		}
	}
	an.mu.Unlock()
	an.progress.stop()

	var stopped *budgetError
	var na *demand.NotAnalyzedError
	switch {
	case finished && errors.As(runErr, &na):
		stopped = budgetOf(na.Cause)
	case finished && runErr != nil:
		if be := budgetOf(runErr); be != nil {
			printError(cmd, runErr)
			return nil, prog, notAnalyzed(cmd, prog, nil, be)
		}
		return fail(runErr)
	case !finished || loopStopped:
		stopped = budgetOf(context.Cause(ctx))
	}
	if stopped != nil && len(reps) == 0 {
		fmt.Fprintf(os.Stderr, "chordgo %s: %s while %s\n", cmd, stopped, phase)
		return nil, prog, notAnalyzed(cmd, prog, missing, stopped)
	}
	if stopped != nil {
		fmt.Fprintf(os.Stderr, "chordgo %s: %s while %s; reporting the races of the last completed run of each of %d program(s), "+
			"which include every race a longer run would report (and perhaps false alarms it would drop); to refine further, %s\n",
			cmd, stopped, phase, len(reps), stopped.advice)
		if len(missing) > 0 {
			notAnalyzed(cmd, prog, missing, stopped)
		}
	}

	t := time.Now()
	mergeOpts := an.repOpts
	if review != nil {
		mergeOpts.Root = review.root
	}
	rep, err := reports.Merge(reps, mergeOpts)
	if err != nil {
		return fail(err)
	}
	if review != nil {
		if err := review.filter(rep); err != nil {
			return fail(err)
		}
	}
	for name, d := range map[string]time.Duration{
		"load": prog.LoadTime, "ssa": prog.BuildTime, "facts": factsTime,
		"pointsto-ci": ciTime, "report": reportTime + time.Since(t),
	} {
		rep.Stats.Seconds[name] = d.Seconds()
	}
	for _, e := range prog.Errors {
		rep.Errors = append(rep.Errors, e.Error())
	}
	if len(missing) > 0 {
		return rep, prog, exitStopped
	}
	return rep, prog, exitClean
}

// analysis is one check's pipeline up to the demand loops' results, one
// per program. It runs in its own goroutine, so that the command can stop
// waiting for it when a budget runs out in a stage that does not stop by
// itself (facts, Datalog runs), and report what the pipeline had
// completed: the programs done, and the last completed run of those in
// progress.
type analysis struct {
	done     chan struct{}                 // closed when run returns
	loaded   func(*pointsto.Program) error // if set, called once the program is loaded, before it is analyzed
	shard    shard
	repOpts  reports.Options
	progress *progress
	keep     func(*demand.Result) // analysisFlags.keep, called by build with mu held

	mu                            sync.Mutex
	phase                         string            // what run is doing, for messages
	prog                          *pointsto.Program // once loaded
	programs                      []int             // the programs to analyze (this shard's), once loaded
	factsTime, ciTime, reportTime time.Duration
	reports                       map[int]*reports.Report // by program: the programs done
	current                       map[int]*reports.Report // by program: the report of the last completed run of those in progress
	stopped                       bool                    // a budget stopped some program's demand loop: its report is its last completed run's
	finished                      bool                    // run returned: err is set if it failed
	err                           error
	// taken is set when the command has read the results. A budget stop
	// leaves run going until its current stage ends; what it completes
	// after is dropped, so that keep's owner (racefree's planner), used
	// by the command from then on, is not written by run at the same time.
	taken bool
}

func (an *analysis) set(f func()) {
	an.mu.Lock()
	defer an.mu.Unlock()
	f()
}

func (an *analysis) run(ctx context.Context, lf *loadFlags, patterns []string, allowEmpty bool, opts demand.Options, eo demand.EachOptions) {
	err := an.analyze(ctx, lf, patterns, allowEmpty, opts, eo)
	an.set(func() { an.finished, an.err = true, err })
	close(an.done)
}

// build describes a completed run's result (an.mu held): its report keeps
// the descriptions of its races, not the program's analysis.
func (an *analysis) build(dr *demand.Result) *reports.Report {
	if an.keep != nil {
		an.keep(dr)
	}
	rep := reports.Build(dr.PointsTo, dr.Races, an.repOpts)
	rep.Stats.Demand = reports.DemandStats(dr, dr.PointsTo.Facts)
	rep.Describe()
	return rep
}

func (an *analysis) analyze(ctx context.Context, lf *loadFlags, patterns []string, allowEmpty bool, opts demand.Options, eo demand.EachOptions) error {
	an.setPhase("loading packages and building SSA")
	prog, err := lf.load(ctx, patterns)
	if err != nil {
		return err
	}
	if an.loaded != nil {
		if err := an.loaded(prog); err != nil {
			return err
		}
	}
	programs := an.shard.programs(prog)
	an.set(func() { an.prog, an.programs = prog, programs })
	an.setPhase("extracting facts")
	t := time.Now()
	facts, err := pointsto.Extract(prog)
	if err != nil {
		return err
	}
	factsTime := time.Since(t)
	an.set(func() { an.factsTime = factsTime })
	an.setPhase("computing the context-insensitive points-to")
	a, err := pointsto.NewAnalyzer(facts)
	if err != nil {
		return err
	}
	if err := checkReached(a, allowEmpty); err != nil {
		return err
	}
	an.set(func() { an.ciTime = a.CITime })
	an.setPhase("analyzing the programs")
	an.progress.programs(len(programs))
	eo.Programs = programs
	opts.Context = ctx
	// Each run's report is built as the run completes, so that the demand
	// loop need not keep its analysis while the next run makes its own
	// (demand.Options.Completed): a budget stop, whether the loop sees it
	// or the command stops waiting, reports the last completed run, and
	// the loop's result is that run's, with the sites capped since.
	opts.Completed = func(dr *demand.Result) {
		an.runCompleted(dr)
		an.progress.run(dr.Program, prog.ProgramName(dr.Program), len(dr.Iterations)+1)
	}
	eo.Started = func(n int) { an.progress.run(n, prog.ProgramName(n), 1) }
	return demand.Each(a, opts, eo, func(dr *demand.Result) error {
		an.programDone(dr, facts)
		return nil
	})
}

// runCompleted builds the report of a program's completed run, unless the
// command has taken the results.
func (an *analysis) runCompleted(dr *demand.Result) {
	an.set(func() {
		if an.taken {
			return
		}
		t := time.Now()
		an.current[dr.Program] = an.build(dr)
		an.reportTime += time.Since(t)
	})
}

// programDone moves a program's last report to the programs done, with the
// demand loop's final statistics, unless the command has taken the
// results.
func (an *analysis) programDone(dr *demand.Result, facts *pointsto.Facts) {
	// Under the lock: the command, stopping, would otherwise take this
	// report from an.current at the same time.
	an.set(func() {
		if an.taken {
			return
		}
		rep := an.current[dr.Program]
		rep.SetDemand(reports.DemandStats(dr, facts))
		an.stopped = an.stopped || dr.Stopped != nil
		an.reports[dr.Program] = rep
		delete(an.current, dr.Program)
	})
	an.progress.done(dr.Program)
}

// setPhase says what the analysis is doing, for messages and the progress
// line.
func (an *analysis) setPhase(phase string) {
	an.set(func() { an.phase = phase })
	an.progress.phase(phase)
}

// checkReached says on standard error which packages named no root runs
// (their races cannot be reported), and fails if that is all of them,
// unless allowEmpty.
func checkReached(a *pointsto.Analyzer, allowEmpty bool) error {
	f := a.Facts
	reached := map[*pointsto.Package]bool{}
	mark := func(m uint32) {
		fn := f.Func(m)
		if fn == nil {
			return
		}
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if fn.Pkg != nil {
			reached[f.Prog.PackageOf(fn.Pkg.Pkg)] = true
		}
	}
	for _, t := range f.Tuples("entry") {
		mark(t[0])
	}
	for _, callees := range a.CallGraph() {
		for _, m := range callees {
			mark(m)
		}
	}
	// A package named is run if its code or its tests' code is.
	run := map[string]bool{}
	var named []string
	for _, p := range f.Prog.Packages {
		if !p.Initial {
			continue
		}
		path := p.PkgPath
		if p.ForTest != "" {
			path = p.ForTest
		}
		if _, ok := run[path]; !ok {
			named = append(named, path)
		}
		run[path] = run[path] || reached[p]
	}
	var missed []string
	for _, path := range named {
		if !run[path] {
			missed = append(missed, path)
		}
	}
	switch {
	case len(missed) == 0:
		return nil
	case len(missed) < len(named) || allowEmpty:
		fmt.Fprintf(os.Stderr, "chordgo check: warning: no main function, test, benchmark, fuzz target or example runs code of %d of the %d packages named, so their races are not reported: %s\n",
			len(missed), len(named), listNames(missed))
		return nil
	}
	return errors.New("nothing to analyze: no main function, test, benchmark, fuzz target or example runs code of the packages named (" +
		listNames(missed) + "); name a main package or packages with tests (-tests=true), or pass -allow-empty to accept an empty report")
}

// notAnalyzed names the programs a budget or an interrupt (be) kept from a
// complete run (all of them if missing is nil), and says what to try.
func notAnalyzed(cmd string, prog *pointsto.Program, missing []int, be *budgetError) int {
	if prog == nil {
		fmt.Fprintf(os.Stderr, "chordgo %s: not analyzed: the packages named (loading did not finish)\n", cmd)
	} else {
		if missing == nil {
			missing = prog.Programs()
		}
		var names []string
		for _, n := range missing {
			names = append(names, prog.ProgramName(n))
		}
		fmt.Fprintf(os.Stderr, "chordgo %s: not analyzed: %d of %d program(s), their races unknown: %s\n", cmd, len(names), prog.NumPrograms, listNames(names))
	}
	fmt.Fprintf(os.Stderr, "chordgo %s: %s\n", cmd, be.advice)
	return exitStopped
}

// listNames joins names, the first ten of them and the count of the rest.
func listNames(names []string) string {
	const shown = 10
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}
