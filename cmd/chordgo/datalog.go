package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/chordgo/chordgo/datalog"
)

// runDatalog implements "chordgo datalog", with Souffle's meaning of -F and -D.
func runDatalog(args []string) int {
	fs := flag.NewFlagSet("datalog", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	factDir := fs.String("F", ".", "read input relation R from `dir`/R.facts")
	outDir := fs.String("D", ".", "write output relation R to `dir`/R.csv; - writes to standard output")
	stats := fs.Bool("stats", false, "print per-stratum and per-rule tuples and times to standard error")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo datalog [-F factdir] [-D outdir] [-stats] program.dl\n\n"+
			"Evaluates a Datalog program written in a subset of Souffle's language.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	fail := failer("datalog")
	file := fs.Arg(0)
	src, err := os.ReadFile(file)
	if err != nil {
		return fail(err)
	}
	prog, err := datalog.Parse(file, src)
	if err != nil {
		return fail(err)
	}
	db := datalog.NewDatabase(prog)
	if err := db.LoadFacts(*factDir); err != nil {
		return fail(err)
	}
	st, err := db.Run()
	if err != nil {
		return fail(err)
	}
	if *outDir == "-" {
		for _, rel := range prog.Relations {
			if rel.Output {
				fmt.Printf("---------------\n%s\n", rel.Name)
				if err := db.WriteRelation(os.Stdout, rel.Name); err != nil {
					return fail(err)
				}
			}
		}
	} else if err := db.WriteOutputs(*outDir); err != nil {
		return fail(err)
	}
	if *stats {
		if err := st.Write(os.Stderr); err != nil {
			return fail(err)
		}
	}
	return 0
}
