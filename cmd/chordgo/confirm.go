package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chordgo/chordgo/confirm"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/reports"
)

// exitMissed is chordgo confirm's status when the race detector reported
// a race chordgo did not: a soundness bug, which outranks every other
// outcome.
const exitMissed = 4

// runConfirm implements "chordgo confirm": check's analysis, then the
// races' roots under the race detector (package confirm).
func runConfirm(args []string) int {
	fs := flag.NewFlagSet("confirm", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	lf := addLoadFlags(fs)
	af := addAnalysisFlags(fs)
	af.addShardFlag(fs)
	budget := addBudgetFlags(fs)
	jsonOut := fs.Bool("json", false, "print check's JSON report with, for each race, \"confirmed\", \"witness\" and \"note\", and the races missed (schema: go doc github.com/chordgo/chordgo/confirm)")
	count := fs.Int("count", 3, "run each program `n` times (go test -count n; a main package or a directed run: n processes)")
	mode := fs.String("mode", "both", "`runs` to make: undirected (the tests as they are), directed (with a hook before each access of a race), or both (directed for the races undirected runs did not confirm)")
	wait := fs.Duration("wait", 100*time.Millisecond, "how long a directed run's hook holds the first goroutine to reach one access of the race for the other")
	runTimeout := fs.Duration("run-timeout", time.Minute, "kill a program's process after `duration` (a directed schedule can make a program deadlock; 0: no limit)")
	verbose := fs.Bool("v", false, "print each build and run on standard error")
	all := fs.Bool("all", false, "also run the roots no race names (every test of the packages named, their main packages), to look for races chordgo missed")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo confirm [-json] [-count N] [-mode both|undirected|directed] [-wait D] [-all]\n"+
			"\t[-run-timeout D] [-v] [-tests=true] [-tags T] [-run RE] [-std] [-k N] [-demand=true]\n"+
			"\t[-max-contexts N] [-paths N] [-timeout D] [-mem SIZE] [-allow-empty] [-shard I/N] [packages]\n\n"+
			"Analyzes the packages as chordgo check does, then runs, one package at a time,\n"+
			"the roots of each race reported (its tests, or its main package) under the race\n"+
			"detector, and marks a race confirmed when a report of the race detector has both\n"+
			"its positions. Directed runs build the program with go build -overlay copies of\n"+
			"the two accesses' files in which a hook, on the access's line, holds the first\n"+
			"goroutine to arrive until the other reaches the other access (at most -wait).\n"+
			"Races the race detector reports and chordgo does not are printed as misses;\n"+
			"-all runs the roots no race names too, to look for them.\n"+
			"-timeout bounds the whole command, analysis and runs.\n\n"+
			"Exit status: 0 no race, 1 races reported, 2 the program could not be analyzed,\n"+
			"built or run, 3 a budget ran out before the first complete analysis, 4 the race\n"+
			"detector reported a race chordgo did not (a soundness bug).\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := failer("confirm")
	m, err := confirm.ParseMode(*mode)
	if err != nil {
		return fail(fmt.Errorf("-mode: %v", err))
	}
	if *count < 1 {
		return fail(fmt.Errorf("-count %d: want at least 1 run", *count))
	}
	if *wait <= 0 {
		return fail(fmt.Errorf("-wait %v: want a positive duration", *wait))
	}
	if *runTimeout < 0 {
		return fail(fmt.Errorf("-run-timeout %v: want a positive duration, or 0 for no limit", *runTimeout))
	}
	ctx, stop, err := budget.start()
	if err != nil {
		return fail(err)
	}
	defer stop()
	af.mayStart = budget.mayStart
	rep, prog, code := af.analyze(ctx, "confirm", lf, fs.Args(), false, nil)
	if rep == nil {
		return code
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		return fail(err)
	}
	var static struct{ Races []reports.Race }
	if err := json.Unmarshal(buf.Bytes(), &static); err != nil {
		return fail(err)
	}
	roots := confirmRoots(prog)
	opts := confirm.Options{Count: *count, Mode: m, Wait: *wait, RunTimeout: *runTimeout, Tags: lf.tagList(), Roots: roots, Scope: namedFiles(prog)}
	if *all {
		for _, r := range prog.Roots {
			opts.AlsoRun = append(opts.AlsoRun, roots[r.Func.String()])
		}
	}
	if *verbose {
		opts.Log = os.Stderr
	}
	res, err := confirm.Confirm(ctx, static.Races, opts)
	if err != nil {
		return fail(err)
	}
	if res.Stopped != nil {
		fmt.Fprintf(os.Stderr, "chordgo confirm: runs stopped: %v; the races not run say so\n", res.Stopped)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(os.Stderr, "chordgo confirm: %s\n", e)
	}
	if *jsonOut {
		err = writeConfirmJSON(os.Stdout, rep, res)
	} else {
		err = writeConfirmText(os.Stdout, rep, res)
	}
	if err != nil {
		return fail(err)
	}
	switch {
	case len(res.Misses) > 0:
		fmt.Fprintf(os.Stderr, "chordgo confirm: the race detector reported %d race(s) that chordgo did not (MISSED RACE above): a soundness bug\n", len(res.Misses))
		return exitMissed
	case len(prog.Errors) > 0 || len(res.Errors) > 0:
		return exitFailed
	case len(res.Races) > 0:
		return exitRaces
	}
	return code
}

// confirmRoots says how each root of the program is run: its tests by go
// test -run (benchmarks by -bench), a main package as a command, and the
// initializers with the first program that runs them.
func confirmRoots(prog *pointsto.Program) map[string]confirm.Root {
	out := map[string]confirm.Root{}
	for _, r := range prog.Roots {
		p := confirm.Program{
			Dir:  filepath.Dir(prog.Fset.Position(r.Func.Pos()).Filename),
			Name: r.Func.Pkg.Pkg.Path(),
			Main: r.Kind == pointsto.Main,
		}
		if pkg := prog.PackageOf(r.Func.Pkg.Pkg); pkg != nil && pkg.ForTest != "" {
			p.Name = pkg.ForTest
		}
		root := confirm.Root{Program: p}
		switch r.Kind {
		case pointsto.Test, pointsto.Fuzz, pointsto.Example:
			root.Test = r.Name
		case pointsto.Benchmark:
			root.Test, root.Benchmark = r.Name, true
		}
		out[r.Func.String()] = root
		for _, init := range r.Inits {
			if _, ok := out[init.String()]; !ok {
				out[init.String()] = confirm.Root{Program: p}
			}
		}
	}
	return out
}

// namedFiles says whether a file is in the directory of a package named
// on the command line: the races chordgo reports have an access there.
func namedFiles(prog *pointsto.Program) func(string) bool {
	dirs := map[string]bool{}
	for _, p := range prog.Packages {
		if !p.Initial {
			continue
		}
		for _, m := range p.SSA.Members {
			if pos := m.Pos(); pos.IsValid() {
				dirs[filepath.Dir(prog.Fset.Position(pos).Filename)] = true
				break
			}
		}
	}
	return func(file string) bool { return dirs[filepath.Dir(file)] }
}

// confirmNote is what the text report says under a race.
func confirmNote(r *confirm.Race) string {
	if !r.Confirmed {
		return "Not confirmed: " + r.Note
	}
	w := r.Witness
	how := "by go test -race"
	if w.Test == "" {
		how = "by the race detector"
	}
	if w.Directed {
		how += " in a directed run"
	}
	s := "Confirmed " + how + ": " + w.Program
	if w.Test != "" {
		s += " " + w.Test
	}
	for _, line := range w.Schedule {
		s += "\n  schedule: " + line
	}
	return s
}

func writeConfirmText(w io.Writer, rep *reports.Report, res *confirm.Result) error {
	byID := map[string]*confirm.Race{}
	for i := range res.Races {
		byID[res.Races[i].ID] = &res.Races[i]
	}
	rep.Annotate(func(id string) string { return confirmNote(byID[id]) })
	if err := rep.WriteText(w); err != nil {
		return err
	}
	for _, m := range res.Misses {
		fmt.Fprintf(w, "==================\nMISSED RACE: the race detector reported this race and chordgo did not (a soundness bug: make it a testdata/races program)\n")
		fmt.Fprintf(w, "Accesses at %s and %s, seen running %s %s%s\n%s\n", orUnknown(m.Accesses[0]), orUnknown(m.Accesses[1]),
			m.Witness.Program, m.Witness.Test, directedNote(m.Witness.Directed), m.Witness.Report)
	}
	if len(res.Misses) > 0 {
		fmt.Fprintf(w, "==================\n")
	}
	_, err := fmt.Fprintf(w, "chordgo confirm: %s\n", res.Summary())
	return err
}

func orUnknown(pos string) string {
	if pos == "" {
		return "(no frame outside the runtime)"
	}
	return pos
}

func directedNote(directed bool) string {
	if directed {
		return " (a directed run)"
	}
	return ""
}

// confirmReport is chordgo confirm -json's output.
type confirmReport struct {
	Races  []confirm.Race `json:"races"`
	Misses []confirm.Miss `json:"misses"`
	Errors []string       `json:"errors,omitempty"`
	Stats  reports.Stats  `json:"stats"`
}

func writeConfirmJSON(w io.Writer, rep *reports.Report, res *confirm.Result) error {
	out := confirmReport{Races: res.Races, Misses: res.Misses, Errors: append(slices.Clone(rep.Errors), res.Errors...), Stats: rep.Stats}
	// Without times, as check -json without -stats.
	out.Stats.Seconds = nil
	if d := out.Stats.Demand; d != nil {
		withoutTimes := *d
		withoutTimes.Seconds = nil
		out.Stats.Demand = &withoutTimes
	}
	if out.Races == nil {
		out.Races = []confirm.Race{}
	}
	if out.Misses == nil {
		out.Misses = []confirm.Miss{}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
