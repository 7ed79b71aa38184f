// Command chordgo is a static data-race detector for Go.
//
// Usage:
//
//	chordgo check [-json] [-stats] [flags] [packages]
//	chordgo confirm [-json] [-count N] [-mode M] [-wait D] [flags] [packages]
//	chordgo datalog [-F factdir] [-D outdir] [-stats] program.dl
//	chordgo facts [-o dir] [flags] [packages]
//	chordgo merge [-paths N] report.json...
//	chordgo racefree -overlay FILE [-v] [flags] [packages]
//
// Run "chordgo help <command>" for a command's flags.
//
// check runs the pipeline (pointsto loading and facts, the demand loop over
// points-to and the race funnel for each program, several at once, and
// reports merged across programs) under budgets: -timeout, -mem
// (default $CHORDGO_MEM or half of the machine's memory; the Go runtime's
// memory limit plus a watchdog on runtime/metrics) and SIGINT end a context
// that loading and the demand loop watch; the command stops waiting for the
// pipeline at once and reports each program's last completed run, naming
// the programs without one. On a terminal, a line on standard error
// (progress.go) says where the analysis stands. -shard I/N analyzes a
// share of the programs, and merge (merge.go) joins the shards' JSON
// reports into the report of the whole. Its
// code-review flags (review.go: -sarif, -baseline, -write-baseline,
// -new-from-rev, and //chordgo:ignore comments) read what they need once
// the program is loaded, before it is analyzed, so that a wrong comment or
// revision fails at once. Exit status: 0 no race reported, 1 races, 2 could
// not analyze (or a package failed to load), 3 a budget ran out before a
// program's first complete run and no race was reported.
//
// confirm runs check's pipeline, then hands the races to package confirm,
// which runs their roots under the race detector; its exit status adds 4:
// the race detector reported a race chordgo did not.
//
// racefree runs check's pipeline, then hands the demand loop's last run to
// package racefree, which writes a go build -overlay that marks the
// functions proven race-free //go:norace and routes single race-free
// accesses through //go:norace accessors.
package main

import (
	"fmt"
	"os"
)

type command struct {
	name, summary string
	run           func(args []string) int
}

func commands() []command {
	return []command{
		{"check", "report the data races of Go packages", runCheck},
		{"confirm", "report the data races of Go packages, each confirmed or not by running it under the race detector", runConfirm},
		{"datalog", "evaluate a Datalog program (Souffle syntax) on fact files", runDatalog},
		{"racefree", "write a go build -overlay that marks //go:norace the functions chordgo proves race-free", runRacefree},
		{"facts", "write the base relations of Go packages as Souffle fact files", runFacts},
		{"merge", "join the JSON reports of chordgo check -shard into one", runMerge},
	}
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		usage()
		return 2
	}
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(rest) == 1 {
			name, rest = rest[0], []string{"-h"}
		} else {
			usage()
			return 0
		}
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(rest)
		}
	}
	fmt.Fprintln(os.Stderr, shorten(fmt.Sprintf("chordgo: unknown command %q", name)))
	usage()
	return 2
}

func usage() {
	fmt.Fprintf(os.Stderr, "chordgo is a static data-race detector for Go.\n\nUsage:\n\n\tchordgo <command> [arguments]\n\nCommands:\n\n")
	for _, c := range commands() {
		fmt.Fprintf(os.Stderr, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(os.Stderr, "\nRun \"chordgo help <command>\" for a command's flags.\n")
}
