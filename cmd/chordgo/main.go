// Command chordgo is a static data-race detector for Go.
//
// Usage:
//
//	chordgo check [-json] [-stats] [flags] [packages]
//	chordgo datalog [-F factdir] [-D outdir] [-stats] program.dl
//	chordgo facts [-o dir] [flags] [packages]
//
// Run "chordgo help <command>" for a command's flags.
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
		{"datalog", "evaluate a Datalog program (Souffle syntax) on fact files", runDatalog},
		{"facts", "write the base relations of Go packages as Souffle fact files", runFacts},
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
	fmt.Fprintf(os.Stderr, "chordgo: unknown command %q\n", name)
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
