package demand

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// EachOptions say how Each shares the machine between programs.
type EachOptions struct {
	// Workers is how many programs are analyzed at once (0: GOMAXPROCS).
	Workers int
	// MayStart, if set, is asked before a program starts while others
	// are being analyzed; false makes it wait until one of them ends (a
	// memory budget that one more program's analysis could pass). A
	// program always starts when none is being analyzed.
	MayStart func() bool
	// Started, if set, is told when a program's analysis starts.
	Started func(program int)
	// Programs, if not nil, are the programs to analyze (a shard of
	// them); nil: all of a's.
	Programs []int
}

// NotAnalyzedError says which programs Each did not analyze because
// Options.Context ended first: those not started, and those stopped
// before their first run completed. Their races are not known.
type NotAnalyzedError struct {
	Programs []int // pointsto.Root.Program, sorted
	Total    int   // the programs Each was to analyze
	Cause    error // the context's cause
}

func (e *NotAnalyzedError) Error() string {
	return fmt.Sprintf("demand: stopped with %d of %d programs not analyzed: %v", len(e.Programs), e.Total, e.Cause)
}

func (e *NotAnalyzedError) Unwrap() error { return e.Cause }

// Each runs the loop for each program of a's roots (pointsto.Root.Program),
// or of eo.Programs, in its own analysis (pointsto.Analyzer.Program), up to eo.Workers of
// them at once, and gives fn each program's result (Result.Program set)
// as it is done, one call at a time, in the order they finish: a caller
// that wants output independent of timing orders by Result.Program.
// Programs share no memory: a race needs both accesses in one program, and
// no object or context of one program can make another's races, so a
// program's result is the same whether the others run before, after or
// beside it. Programs start in program order; once fn has a result, the
// program's analysis is dropped (unless fn keeps it), so memory holds the
// analyses of the programs in progress. Options.Completed sees each
// program's completed runs, with Result.Program set, one call at a time.
//
// When opts.Context ends, each program in progress gives fn its last
// completed run (Stopped set) if it has one, no other program starts, and
// Each returns a *NotAnalyzedError naming the programs without a result.
// Another error stops Each too: it waits for the programs in progress and
// returns the first error.
func Each(a *pointsto.Analyzer, opts Options, eo EachOptions, fn func(r *Result) error) error {
	programs := a.Facts.Prog.Programs()
	if eo.Programs != nil {
		programs = eo.Programs
	}
	workers := eo.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	funnel := races.NewFinder(a.Facts, opts.Races)
	var completedMu sync.Mutex
	completed := opts.Completed

	type outcome struct {
		program int
		r       *Result
		err     error
	}
	outcomes := make(chan outcome)
	analyzeOne := func(n int) {
		o := outcome{program: n}
		defer func() { outcomes <- o }()
		pa, err := a.Program(n)
		if err != nil {
			o.err = err
			return
		}
		popts := opts
		if completed != nil {
			popts.Completed = func(r *Result) {
				completedMu.Lock()
				defer completedMu.Unlock()
				r.Program = n
				completed(r)
			}
		}
		o.r, o.err = run(pa, popts, funnel)
		if o.r != nil {
			o.r.Program = n
		}
	}

	var notAnalyzed []int
	var firstErr error
	running := 0
	// wait takes the next program's outcome to fn.
	wait := func() {
		o := <-outcomes
		running--
		switch {
		case errors.Is(o.err, errNoRun):
			notAnalyzed = append(notAnalyzed, o.program)
		case o.err != nil:
			if firstErr == nil {
				firstErr = o.err
			}
		case firstErr == nil:
			firstErr = fn(o.r)
		}
	}
	for i, n := range programs {
		for running > 0 && (running >= workers || eo.MayStart != nil && !eo.MayStart()) {
			wait()
		}
		if firstErr != nil {
			break
		}
		if ctx.Err() != nil {
			notAnalyzed = append(notAnalyzed, programs[i:]...)
			break
		}
		if eo.Started != nil {
			eo.Started(n)
		}
		running++
		go analyzeOne(n)
	}
	for running > 0 {
		wait()
	}
	if firstErr != nil {
		return firstErr
	}
	if len(notAnalyzed) > 0 {
		slices.Sort(notAnalyzed)
		return &NotAnalyzedError{Programs: notAnalyzed, Total: len(programs), Cause: context.Cause(ctx)}
	}
	return nil
}
