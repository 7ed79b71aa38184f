package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chordgo/chordgo/pointsto"
)

// runFacts implements "chordgo facts": load packages, extract the base
// relations and write them as Souffle fact files.
func runFacts(args []string) int {
	fs := flag.NewFlagSet("facts", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	out := fs.String("o", "facts", "write the fact files, schema.dl and the domain maps into `dir`")
	force := fs.Bool("force", false, "write into the -o directory even if it holds files other than fact files")
	lf := addLoadFlags(fs)
	stats := fs.Bool("stats", false, "print domain sizes, tuple counts and times to standard error")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo facts [-o dir] [-force] [-tests=true] [-tags T] [-run RE] [-stats] [packages]\n\n"+
			"Loads the packages (patterns as go vet takes them; default \".\") and their\n"+
			"dependencies, builds SSA, and writes the base relations of the points-to and\n"+
			"race analyses: <rel>.facts (tab-separated ids), schema.dl (Souffle declarations)\n"+
			"and <Domain>.map (one description per id).\n\n"+
			"The -o directory must not exist, be empty, or hold only such files (an earlier\n"+
			"run's, which are overwritten); anything else is refused unless -force.\n\n"+
			"Packages that fail to load or type-check are reported and left out; the others\n"+
			"are still written, and the exit status is 2.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := failer("facts")
	if !*force {
		if err := checkFactDir(*out); err != nil {
			return fail(err)
		}
	}
	t0 := time.Now()
	prog, err := lf.load(context.Background(), fs.Args())
	if err != nil {
		return fail(err)
	}
	t1 := time.Now()
	facts, err := pointsto.Extract(prog)
	if err != nil {
		return fail(err)
	}
	t2 := time.Now()
	if err := facts.WriteDir(*out); err != nil {
		return fail(err)
	}
	if len(prog.Roots) == 0 {
		fmt.Fprintf(os.Stderr, "chordgo facts: warning: no main function, test, benchmark, fuzz target or example to start from\n")
	}
	if *stats {
		w := tabwriter.NewWriter(os.Stderr, 0, 8, 2, ' ', 0)
		fmt.Fprintf(w, "load\t%.2fs\tgo list, parse, type-check\n", prog.LoadTime.Seconds())
		fmt.Fprintf(w, "ssa\t%.2fs\t\n", prog.BuildTime.Seconds())
		fmt.Fprintf(w, "facts\t%.2fs\t\n", t2.Sub(t1).Seconds())
		fmt.Fprintf(w, "write\t%.2fs\t\n", time.Since(t2).Seconds())
		fmt.Fprintf(w, "total\t%.2fs\t\n", time.Since(t0).Seconds())
		fmt.Fprintf(w, "roots\t%d\tin %d programs\n", len(prog.Roots), prog.NumPrograms)
		fmt.Fprintf(w, "instructions\t%d\t\n", facts.Stats.Instrs)
		for _, d := range facts.Domains() {
			dom, _ := pointsto.DomainByName(d)
			fmt.Fprintf(w, "%s\t%d\t\n", d, facts.Size(dom))
		}
		for _, r := range facts.Relations() {
			fmt.Fprintf(w, "%s\t%d\t\n", r, facts.Len(r))
		}
		w.Flush()
	}
	if len(prog.Errors) > 0 {
		return 2
	}
	return 0
}

// checkFactDir refuses an output directory that holds anything but fact
// files (*.facts, *.map, schema.dl), so that a mistyped -o does not
// overwrite someone's files.
func checkFactDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	var others []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || name != "schema.dl" && filepath.Ext(name) != ".facts" && filepath.Ext(name) != ".map" {
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		return fmt.Errorf("-o %s holds files that are not fact files (%s); choose another directory, or pass -force to write there anyway", dir, listNames(others))
	}
	return nil
}

// printLoadErrors prints the packages that were left out, go vet style, each
// error line once (test variants repeat their package's errors).
func printLoadErrors(errs []pointsto.LoadError) {
	wd, _ := os.Getwd()
	seen := make(map[string]bool)
	for _, le := range errs {
		var lines []string
		for _, e := range le.Errors {
			e = relPath(wd, e)
			if !seen[e] {
				seen[e] = true
				lines = append(lines, e)
			}
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintln(os.Stderr, shorten("# "+le.Package))
		for _, l := range lines {
			fmt.Fprintln(os.Stderr, shorten(l))
		}
	}
}

// relPath shortens an absolute file name at the start of an error message
// to a path relative to the working directory, as go vet prints them.
func relPath(wd, msg string) string {
	if wd == "" || !filepath.IsAbs(msg) {
		return msg
	}
	i := strings.Index(msg, ":")
	if i < 0 {
		return msg
	}
	rel, err := filepath.Rel(wd, msg[:i])
	if err != nil || strings.HasPrefix(rel, "..") {
		return msg
	}
	if !strings.HasPrefix(rel, ".") {
		rel = "." + string(filepath.Separator) + rel
	}
	return rel + msg[i:]
}
