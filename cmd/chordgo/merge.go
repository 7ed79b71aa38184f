package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/reports"
)

// shard is -shard I/N: the programs whose name hashes to I-1 modulo N. A
// program's share depends on its own name only, so adding or removing a
// program moves no other program between shards.
type shard struct {
	i, n int // 1 <= i <= n; n == 0: all programs
}

func (s *shard) String() string {
	if s == nil || s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.i, s.n)
}

func (s *shard) Set(text string) error {
	is, ns, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return fmt.Errorf("want I/N with 1 <= I <= N, as 2/3")
	}
	s.i, s.n = i, n
	return nil
}

// programs returns this shard's programs of prog, in order.
func (s shard) programs(prog *pointsto.Program) []int {
	all := prog.Programs()
	if s.n == 0 {
		return all
	}
	return slices.DeleteFunc(all, func(n int) bool {
		h := fnv.New64a()
		h.Write([]byte(prog.ProgramName(n)))
		return h.Sum64()%uint64(s.n) != uint64(s.i-1)
	})
}

// runMerge implements "chordgo merge": JSON reports of shards joined into
// the report of the whole.
func runMerge(args []string) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	maxPaths := fs.Int("paths", reports.DefaultMaxPaths, "the -paths the shards were analyzed with")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo merge [-paths N] report.json...\n\n"+
			"Joins the JSON reports of chordgo check -json -shard I/N, one per shard, into one\n"+
			"report, printed as JSON: the report chordgo check -json prints without -shard\n"+
			"(times, with -stats, are summed). A program in two reports is an error.\n\n"+
			"Exit status: 0 no race, 1 races, 2 a report could not be read or merged.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := failer("merge")
	if fs.NArg() == 0 {
		return fail(fmt.Errorf("no reports named: want the JSON reports of chordgo check -json -shard"))
	}
	var reps []*reports.Report
	timings := false
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return fail(err)
		}
		rep, err := reports.ReadJSON(f)
		f.Close()
		if err != nil {
			return fail(fmt.Errorf("%s: %v", name, err))
		}
		timings = timings || len(rep.Stats.Seconds) > 0
		reps = append(reps, rep)
	}
	rep, err := reports.Merge(reps, reports.Options{MaxPaths: *maxPaths, Timings: timings})
	if err != nil {
		return fail(err)
	}
	if err := rep.WriteJSON(os.Stdout); err != nil {
		return fail(err)
	}
	switch {
	case len(rep.Errors) > 0:
		return exitFailed
	case rep.Stats.Reported > 0:
		return exitRaces
	}
	return exitClean
}
