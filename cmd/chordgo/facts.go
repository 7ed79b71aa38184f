package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// runFacts implements "chordgo facts": load packages, extract the base
// relations, run the analysis under one Sigma and write, as Souffle fact
// files, the base relations and the inputs of every rule file's run.
func runFacts(args []string) int {
	fs := flag.NewFlagSet("facts", flag.ContinueOnError)
	fs.SetOutput(shortWriter{os.Stderr})
	out := fs.String("o", "facts", "write the fact files, schema.dl, the domain maps and one directory of inputs per rule file into `dir`")
	force := fs.Bool("force", false, "write into the -o directory even if it holds files other than fact files")
	k := fs.Int("k", 1, "write the rule files' inputs under `k` for every allocation and call site")
	onDemand := fs.Bool("demand", false, "write the rule files' inputs under the last Sigma of the demand loop, as check runs it")
	sigmaFile := fs.String("sigma", "", "write the rule files' inputs under the Sigma of `file` (the sigma.tsv of an earlier run)")
	pointstoOnly := fs.Bool("pointsto-only", false, "write only ci.dl's and kobj.dl's inputs, stopping after kobj.dl (its contexts are made as it runs) before the later stages (not with -demand)")
	std := fs.Bool("std", false, "as check -std: accesses in every package count as analyzed (races.dl's analyzed)")
	lf := addLoadFlags(fs)
	stats := fs.Bool("stats", false, "print domain sizes, tuple counts and times to standard error")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chordgo facts [-o dir] [-force] [-k N] [-demand] [-sigma file] [-pointsto-only] [-std] [-tests=true] [-tags T] [-run RE] [-stats] [packages]\n\n"+
			"Loads the packages (patterns as go vet takes them; default \".\") and their\n"+
			"dependencies, builds SSA, and writes the base relations of the points-to and\n"+
			"race analyses: <rel>.facts (tab-separated ids), schema.dl (Souffle declarations)\n"+
			"and <Domain>.map (one description per id). It then runs the analysis under one\n"+
			"Sigma (one of -k, default 1 everywhere, -demand and -sigma) and writes, for\n"+
			"each run of a rule file, every relation the file declares .input into\n"+
			"<dir>/<file>/ (the second run of a file into <dir>/<file>-2/), so that each\n"+
			"rule file runs alone: souffle -F <dir>/kobj -D out pointsto/kobj.dl. The Sigma\n"+
			"goes to <dir>/sigma.tsv.\n\n"+
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
	var sigmaFlags []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "k" || fl.Name == "sigma" || fl.Name == "demand" && *onDemand {
			sigmaFlags = append(sigmaFlags, "-"+fl.Name)
		}
	})
	if len(sigmaFlags) > 1 {
		return fail(fmt.Errorf("%s: give one of -k, -demand and -sigma", strings.Join(sigmaFlags, " and ")))
	}
	if *pointstoOnly && *onDemand {
		return fail(fmt.Errorf("-pointsto-only and -demand: the demand loop runs every stage; give -k or -sigma"))
	}
	if *k < 1 {
		return fail(fmt.Errorf("-k %d: want a positive k", *k))
	}
	var sigma *pointsto.Sigma // nil: the demand loop's
	switch {
	case *sigmaFile != "":
		var err error
		if sigma, err = readSigma(*sigmaFile); err != nil {
			return fail(err)
		}
	case !*onDemand:
		sigma = pointsto.NewSigma()
		sigma.DefaultSite, sigma.DefaultCalls = *k, *k
	}
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
	t3 := time.Now()
	w := &ruleInputWriter{dir: *out}
	sigma, err = recordRuleRuns(facts, sigma, races.Options{Std: *std}, *pointstoOnly, w.record)
	if err == nil {
		err = w.err
	}
	if err == nil {
		err = writeSigma(filepath.Join(*out, "sigma.tsv"), sigma)
	}
	if err != nil {
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
		fmt.Fprintf(w, "write\t%.2fs\t\n", t3.Sub(t2).Seconds())
		fmt.Fprintf(w, "rule inputs\t%.2fs\tanalysis and writing\n", time.Since(t3).Seconds())
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

// recordRuleRuns runs the analysis of facts under sigma (nil: the demand
// loop's last Sigma) and hands record every rule file's database once it
// has run, in order: ci.dl, kobj.dl, then the funnel's (mhp.dl, races.dl,
// escape.dl, instance.dl, condmustnot.dl three times). The funnel runs over all access pairs,
// as a demand loop's first run does. With pointstoOnly it stops after
// kobj.dl. It returns the Sigma.
func recordRuleRuns(facts *pointsto.Facts, sigma *pointsto.Sigma, opts races.Options, pointstoOnly bool, record func(*datalog.Database)) (*pointsto.Sigma, error) {
	a, err := pointsto.NewRecordingAnalyzer(facts, record)
	if err != nil {
		return nil, err
	}
	var r *pointsto.Result
	if sigma == nil {
		dr, err := demand.Run(a, demand.Options{MaxContexts: defaultMaxContexts, Races: opts})
		if err != nil {
			return nil, err
		}
		r, sigma = dr.PointsTo, dr.Sigma
	} else if r, err = a.Run(sigma); err != nil {
		return nil, err
	}
	record(r.Database())
	if pointstoOnly {
		return sigma, nil
	}
	r.Record = record
	if _, err := races.NewFinder(facts, opts).Find(r, nil); err != nil {
		return nil, err
	}
	return sigma, nil
}

// ruleInputWriter writes the input relations of each rule file's run into
// a directory of its own under dir: <file> for the first run of <file>.dl,
// <file>-<n> for its nth.
type ruleInputWriter struct {
	dir  string
	mu   sync.Mutex
	runs map[string]int // by rule file: the runs seen
	dirs []string       // the directories written, in order
	err  error          // the first error; the later runs are not written
}

// record writes db's inputs into the next directory of its rule file; it
// may be called from several goroutines.
func (w *ruleInputWriter) record(db *datalog.Database) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	if w.runs == nil {
		w.runs = map[string]int{}
	}
	file := ruleFile(db.Program())
	w.runs[file]++
	name := strings.TrimSuffix(file, ".dl")
	if n := w.runs[file]; n > 1 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	w.dirs = append(w.dirs, name)
	w.err = writeInputs(filepath.Join(w.dir, name), db)
}

// ruleFile returns the name of the file p was parsed from.
func ruleFile(p *datalog.Program) string {
	if len(p.Relations) == 0 {
		return "program.dl"
	}
	return filepath.Base(p.Relations[0].Pos.File)
}

// writeInputs writes every input relation of db's program into
// dir/<relation>.facts, creating dir.
func writeInputs(dir string, db *datalog.Database) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for _, rel := range db.Program().Relations {
		if !rel.Input {
			continue
		}
		file, err := os.Create(filepath.Join(dir, rel.Name+".facts"))
		if err != nil {
			return err
		}
		err = writeSorted(file, db, rel)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeSorted writes rel's tuples in db, tab-separated, one a line, sorted
// by their values: the same bytes whatever order they were added in.
func writeSorted(out io.Writer, db *datalog.Database, rel *datalog.Relation) error {
	arity := rel.Arity()
	var data []uint32
	for t := range db.Tuples(rel.Name) {
		data = append(data, t...)
	}
	order := make([]int, len(data)/max(arity, 1))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		return slices.Compare(data[i*arity:(i+1)*arity], data[j*arity:(j+1)*arity])
	})
	w := bufio.NewWriterSize(out, 1<<16)
	for _, i := range order {
		for c, attr := range rel.Attrs {
			if c > 0 {
				w.WriteByte('\t')
			}
			w.WriteString(db.Text(attr.Type, data[i*arity+c]))
		}
		w.WriteByte('\n')
	}
	return w.Flush()
}

// writeSigma writes sigma as readSigma reads it: "default-site k",
// "default-call k", then "site H k", "call I k" and "root H" (site H split
// by root) lines, tab-separated, sorted.
func writeSigma(name string, sigma *pointsto.Sigma) error {
	var b strings.Builder
	fmt.Fprintf(&b, "default-site\t%d\ndefault-call\t%d\n", sigma.DefaultSite, sigma.DefaultCalls)
	for _, kind := range []struct {
		name string
		k    map[uint32]int
	}{{"site", sigma.Sites}, {"call", sigma.Calls}} {
		for _, id := range slices.Sorted(maps.Keys(kind.k)) {
			fmt.Fprintf(&b, "%s\t%d\t%d\n", kind.name, id, kind.k[id])
		}
	}
	for _, h := range slices.Sorted(maps.Keys(sigma.Roots)) {
		fmt.Fprintf(&b, "root\t%d\n", h)
	}
	return os.WriteFile(name, []byte(b.String()), 0o666)
}

// readSigma reads a Sigma that writeSigma wrote. Site and call ids are
// those of the same program's facts.
func readSigma(name string) (*pointsto.Sigma, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("-sigma: %w", err)
	}
	sigma := pointsto.NewSigma()
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		fields := strings.Split(line, "\t")
		nums := make([]int, len(fields)-1)
		for i, f := range fields[1:] {
			if nums[i], err = strconv.Atoi(f); err != nil || nums[i] < 0 {
				return nil, fmt.Errorf("%s:%d: %q is not a non-negative number", name, n+1, f)
			}
		}
		if strings.Contains(fields[0], "site") && len(nums) > 0 && nums[len(nums)-1] == 0 {
			return nil, fmt.Errorf("%s:%d: k = 0 for an allocation site: an object has at least its site", name, n+1)
		}
		switch {
		case fields[0] == "default-site" && len(nums) == 1:
			sigma.DefaultSite = nums[0]
		case fields[0] == "default-call" && len(nums) == 1:
			sigma.DefaultCalls = nums[0]
		case fields[0] == "site" && len(nums) == 2:
			sigma.Sites[uint32(nums[0])] = nums[1]
		case fields[0] == "call" && len(nums) == 2:
			sigma.Calls[uint32(nums[0])] = nums[1]
		case fields[0] == "root" && len(nums) == 1:
			sigma.Roots[uint32(nums[0])] = true
		default:
			return nil, fmt.Errorf("%s:%d: want \"default-site K\", \"default-call K\", \"site H K\", \"call I K\" or \"root H\", tab-separated; found %q", name, n+1, line)
		}
	}
	return sigma, nil
}

// checkFactDir refuses an output directory that holds anything but fact
// files (*.facts, *.map, schema.dl, sigma.tsv, directories of *.facts), so that a mistyped -o does not
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
		switch {
		case e.IsDir():
			if sub, err := factFilesOnly(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("-o: %w", err)
			} else if !sub {
				others = append(others, name+string(filepath.Separator))
			}
		case !e.Type().IsRegular() || name != "schema.dl" && name != "sigma.tsv" && filepath.Ext(name) != ".facts" && filepath.Ext(name) != ".map":
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		return fmt.Errorf("-o %s holds files that are not fact files (%s); choose another directory, or pass -force to write there anyway", dir, listNames(others))
	}
	return nil
}

// factFilesOnly reports whether dir holds only *.facts files: a rule
// file's inputs, as an earlier run wrote them.
func factFilesOnly(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || filepath.Ext(e.Name()) != ".facts" {
			return false, nil
		}
	}
	return true, nil
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
