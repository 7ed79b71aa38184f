package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/chordgo/chordgo/internal/overlay"
	"github.com/chordgo/chordgo/racefree"
)

// runRacefree implements "chordgo racefree": check's analysis, then an
// overlay that marks //go:norace the functions it proved race-free
// (package racefree).
func runRacefree(args []string) int {
	fs := flag.NewFlagSet("racefree", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	lf := addLoadFlags(fs)
	af := addAnalysisFlags(fs)
	budget := addBudgetFlags(fs)
	overlayFile := fs.String("overlay", "", "write the go build -overlay `file` here (the rewritten files go into a directory beside it: the file's name without extension, plus .files)")
	verbose := fs.Bool("v", false, "print each function declaration of the packages named, marked or not and why")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo racefree [-overlay FILE (required)] [-v] [-tests=true] [-tags T] [-run RE] [-std] [-k N]\n"+
			"\t[-demand=true] [-max-contexts N] [-paths N] [-timeout D] [-mem SIZE] [-allow-empty] [packages]\n\n"+
			"Analyzes the packages as chordgo check does, then writes a go build -overlay file\n"+
			"under which the race detector checks fewer accesses: each function of the packages\n"+
			"named whose loads and stores, and those of the functions the compiler may inline\n"+
			"into it, are in no race chordgo reports is marked //go:norace (line numbers stay).\n"+
			"Run the same programs with it: go test -race -overlay FILE [packages], with the\n"+
			"same -tags and -run (the proof holds for the tests and main packages analyzed).\n\n"+
			"Exit status: 0 overlay written, 2 the program could not be analyzed or the overlay\n"+
			"not written, 3 a budget ran out before the first complete analysis.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := failer("racefree")
	if *overlayFile == "" {
		return fail(errors.New("-overlay FILE is required"))
	}
	ctx, stop, err := budget.start()
	if err != nil {
		return fail(err)
	}
	defer stop()
	planner := racefree.NewPlanner()
	af.keep = planner.Add
	rep, prog, code := af.analyze(ctx, "racefree", lf, fs.Args(), false, nil)
	if rep == nil {
		return code
	}
	if code == exitStopped {
		// A function proven race-free in the programs analyzed may race in
		// one the budget left out.
		return fail(errors.New("no overlay written: a budget kept some programs from a complete analysis"))
	}
	replaceable, err := overlay.Unreplaceable()
	if err != nil {
		return fail(err)
	}
	funcs := planner.Plan(func(file string) bool { return !replaceable(file) })
	if err := racefree.Write(*overlayFile, funcs); err != nil {
		return fail(err)
	}
	if *verbose {
		for _, f := range funcs {
			fmt.Println(f)
		}
	}
	fmt.Println(summary(funcs, *overlayFile))
	if len(prog.Errors) > 0 {
		return exitFailed
	}
	return exitClean
}

// summary says in a few lines how many functions were marked and why the
// others were not.
func summary(funcs []racefree.Function, overlayFile string) string {
	marked, checks, accessors, withAccessors, spanMarked, spanAccessors, spanAll := 0, 0, 0, 0, 0, 0, 0
	why := map[racefree.Reason]int{}
	skipped := map[racefree.Skip]int{}
	for _, f := range funcs {
		spanAll += f.Redundant
		if f.Marked {
			marked++
			checks += f.Checks
			spanMarked += f.Redundant
			continue
		}
		why[f.Reason]++
		if f.Accessors > 0 {
			withAccessors++
			accessors += f.Accessors
			spanAccessors += f.SpanAccessors
		}
		for s, n := range f.Skipped {
			skipped[s] += n
		}
	}
	s := fmt.Sprintf("chordgo racefree: %d of %d function declarations marked //go:norace (%d loads and stores in their bodies); wrote %s",
		marked, len(funcs), checks, overlayFile)
	for _, r := range slices.Sorted(maps.Keys(why)) {
		s += fmt.Sprintf("\n  %d not marked: %s", why[r], r)
	}
	s += fmt.Sprintf("\n%d race-free loads and stores of %d functions not marked go through //go:norace accessors", accessors, withAccessors)
	for _, r := range slices.Sorted(maps.Keys(skipped)) {
		s += fmt.Sprintf("\n  %d race-free loads and stores left: %s", skipped[r], r)
	}
	s += fmt.Sprintf("\nspan redundancy covers %d loads and stores not proven race-free: %d in marked functions, %d through accessors",
		spanAll, spanMarked, spanAccessors)
	return s
}
