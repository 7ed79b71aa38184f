package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// slowLimit is the time chordgo may take on one generated program alone
// (load included); more is a bug to report (issue 10).
const slowLimit = 10 * time.Second

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-analyze" {
		os.Exit(analyzeChild(os.Args[2], os.Args[3:]))
	}
	n := flag.Int("n", 50, "number of programs")
	seed := flag.Uint64("seed", 1, "the first program's seed; the others follow")
	size := flag.Int("batch", 100, "programs per batch (one build, one chordgo load)")
	runs := flag.Int("runs", 3, "runs of each program under the race detector")
	alone := flag.Int("alone", 0, "analyze the first `N` programs also one at a time, to time chordgo per program")
	out := flag.String("out", "difftest-misses", "directory for the shrunk programs of the misses")
	shrinks := flag.Int("shrink", 1, "shrink the first `N` programs with misses no known cause explains")
	generics := flag.Bool("generics", true, "generate generic types and functions")
	printOnly := flag.Bool("print", false, "print the program of -seed and exit")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./internal/difftest [-n N] [-seed S] [-batch B] [-runs R] [-alone A] [-shrink N] [-out dir] [-generics=false]\n\n"+
			"Generates programs from seeds S, S+1, ..., runs each under the race detector R times\n"+
			"and analyzes them with chordgo; a race the detector reports that chordgo does not is a\n"+
			"miss: its program is printed with its seed, and the first ones no known cause explains\n"+
			"are shrunk and written to the -out directory.\n"+
			"Exit status 1 if there was a miss, a program failed, or chordgo took more than 10 s on one.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *printOnly {
		fmt.Print(Generate(*seed, *generics))
		return
	}
	if *n <= 0 || *size <= 0 || *runs <= 0 || *alone < 0 {
		fmt.Fprintln(os.Stderr, "difftest: -n, -batch and -runs must be positive, -alone not negative")
		os.Exit(2)
	}
	s := &session{runs: *runs, out: *out, shrinks: *shrinks, generics: *generics, size: *size}
	if err := s.run(*seed, *n, *size, *alone); err != nil {
		fmt.Fprintln(os.Stderr, "difftest:", err)
		os.Exit(2)
	}
	if len(s.missSeeds)+len(s.failSeeds)+len(s.slow) > 0 {
		os.Exit(1)
	}
}

// session accumulates the counts of a long run.
type session struct {
	runs     int
	out      string
	shrinks  int  // programs with misses left to shrink
	generics bool // Generate's
	size     int  // programs per batch
	// programs run, those with a detected race, detected races, detector
	// reports not placed in the program's file
	programs, racy, detected, other int
	// chordgo's races, those the detector saw, misses, races never seen
	// and their programs
	found, foundSeen, misses, unseen, unseenProgs int
	missSeeds, failSeeds                          []uint64
	byCause                                       []int              // misses put down to each of knownCauses
	newMissSeeds                                  []uint64           // programs with a miss no known cause explains
	slow                                          map[uint64]float64 // seed -> chordgo's time alone, 0: did not end
	batchSeconds, aloneSeconds, aloneCPU          []float64          // chordgo's time per program (wall, CPU)
}

// run evaluates programs seed, ..., seed+n-1 in batches of size, and
// analyzes the first alone programs also one at a time.
func (s *session) run(seed uint64, n, size, alone int) error {
	s.slow = map[uint64]float64{}
	s.byCause = make([]int, len(knownCauses))
	for first := 0; first < n; first += size {
		count := min(size, n-first)
		var srcs []string
		for i := range count {
			srcs = append(srcs, Generate(seed+uint64(first+i), s.generics))
		}
		dir, err := os.MkdirTemp("", "difftest")
		if err != nil {
			return err
		}
		start := time.Now()
		outs, an, err := evaluate(dir, srcs, s.runs, 20*time.Second, s.analyzeInChild)
		if err == nil {
			err = s.time(dir, seed+uint64(first), outs, an, max(0, min(alone-first, count)))
		}
		os.RemoveAll(dir)
		if err != nil {
			return err
		}
		for name, secs := range an.Slow {
			s.slow[seed+uint64(first)+programIndex(name)] = secs
		}
		for i, o := range outs {
			if err := s.record(seed+uint64(first+i), o); err != nil {
				return err
			}
		}
		// The counts so far, so that a long run stopped early has them.
		fmt.Printf("\nseeds %d-%d (the last %d in %.0f s):\n", seed, seed+uint64(first+count-1), count, time.Since(start).Seconds())
		s.summary()
	}
	return nil
}

// time records chordgo's time per program in the batch whose first seed
// is seed, and analyzes its first alone programs one at a time.
func (s *session) time(dir string, seed uint64, outs []*outcome, an *analysis, alone int) error {
	analyzed := 0
	for _, o := range outs {
		if o.analyzed {
			analyzed++
		}
	}
	if analyzed > 0 {
		s.batchSeconds = append(s.batchSeconds, an.Seconds/float64(analyzed))
	}
	for i := range alone {
		name := fmt.Sprintf("p%04d", i)
		if _, slow := an.Slow[name]; slow || !outs[i].compiled {
			continue
		}
		a, err := s.analyzeInChild(dir, []string{name})
		if err != nil {
			return err
		}
		s.aloneSeconds = append(s.aloneSeconds, a.Seconds)
		s.aloneCPU = append(s.aloneCPU, a.CPUSeconds)
		for _, secs := range a.Slow {
			s.slow[seed+uint64(i)] = secs
		}
	}
	return nil
}

func programIndex(name string) uint64 {
	var i uint64
	fmt.Sscanf(name, "p%d", &i)
	return i
}

// record adds a program's outcome to the counts, and reports and shrinks
// a miss.
func (s *session) record(seed uint64, o *outcome) error {
	s.programs++
	if o.fail != "" {
		s.failSeeds = append(s.failSeeds, seed)
		fmt.Fprintf(os.Stderr, "difftest: seed %d: %s\n%s\n", seed, o.fail, o.src)
	}
	if len(o.detected) > 0 {
		s.racy++
	}
	s.detected += len(o.detected)
	s.other += o.other
	s.found += len(o.found)
	s.foundSeen += len(o.found) - len(o.unseen)
	s.unseen += len(o.unseen)
	if len(o.unseen) > 0 {
		s.unseenProgs++
	}
	if len(o.misses) == 0 {
		return nil
	}
	s.misses += len(o.misses)
	s.missSeeds = append(s.missSeeds, seed)
	fmt.Fprintf(os.Stderr, "difftest: seed %d: %s\n%s\n", seed, o.describe(), o.src)
	explained := true
	for _, miss := range o.misses {
		c, err := explain(o.src, miss)
		if err != nil {
			return err
		}
		if c < 0 {
			explained = false
			continue
		}
		s.byCause[c]++
	}
	if explained {
		return nil // its testdata/races programs are there already
	}
	s.newMissSeeds = append(s.newMissSeeds, seed)
	if s.shrinks == 0 {
		return nil
	}
	s.shrinks--
	small, err := shrink(o.src, s.keepMiss)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.out, 0o755); err != nil {
		return err
	}
	file := filepath.Join(s.out, fmt.Sprintf("seed%d.go", seed))
	if err := os.WriteFile(file, []byte(small), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "difftest: seed %d: shrunk to %d lines in %s\n", seed, strings.Count(small, "\n"), file)
	return nil
}

// keepMiss returns the index of the first program that compiles, runs
// and still has a race chordgo misses that no known cause explains, or -1.
func (s *session) keepMiss(srcs []string) (int, error) {
	fmt.Fprintf(os.Stderr, "difftest: shrinking: %d variants of %d lines or more\n", len(srcs), strings.Count(srcs[0], "\n"))
	dir, err := os.MkdirTemp("", "difftest-shrink")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	outs, _, err := evaluate(dir, srcs, s.runs, 5*time.Second, s.analyzeInChild)
	if err != nil {
		return 0, err
	}
	for i, o := range outs {
		if !o.compiled || o.fail != "" {
			continue
		}
		for _, miss := range o.misses {
			if c, err := explain(o.src, miss); err != nil || c < 0 {
				return i, err
			}
		}
	}
	return -1, nil
}

// analyzeChild is the child process's side of analyzeInChild: it prints
// the analysis as JSON.
func analyzeChild(dir string, names []string) int {
	a, err := analyze(dir, names)
	if err == nil {
		err = json.NewEncoder(os.Stdout).Encode(a)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "difftest -analyze:", err)
		return 2
	}
	return 0
}

var errTimeout = errors.New("time limit passed")

// slowGiveUp is how long one slow program's analysis is waited for.
const slowGiveUp = 2 * time.Minute

// analyzeInChild analyzes the programs in a child process, so that a
// program on which chordgo does not end cannot stop the run. A batch gets
// a minute plus a second per program; past that, each half is analyzed on
// its own, down to single programs, which get slowLimit, and then
// slowGiveUp to measure them: one is slow if it passes slowLimit in CPU
// time too, as it would on a machine of its own.
func (s *session) analyzeInChild(dir string, names []string) (*analysis, error) {
	limit := time.Minute + time.Duration(len(names))*time.Second
	if len(names) == 1 {
		limit = slowLimit
	}
	a, err := childAnalysis(dir, names, limit)
	switch {
	case !errors.Is(err, errTimeout):
		return a, err
	case len(names) == 1:
		a, err := childAnalysis(dir, names, slowGiveUp)
		if errors.Is(err, errTimeout) {
			return &analysis{Races: map[string][]pair{}, Slow: map[string]float64{names[0]: 0}, Seconds: slowGiveUp.Seconds()}, nil
		}
		if err == nil && a.Seconds > slowLimit.Seconds() && a.CPUSeconds > slowLimit.Seconds() {
			a.Slow = map[string]float64{names[0]: a.Seconds}
		}
		return a, err
	}
	half := len(names) / 2
	a, err = s.analyzeInChild(dir, names[:half])
	if err != nil {
		return nil, err
	}
	b, err := s.analyzeInChild(dir, names[half:])
	if err != nil {
		return nil, err
	}
	a.Seconds += b.Seconds
	a.CPUSeconds += b.CPUSeconds
	for name, races := range b.Races {
		a.Races[name] = races
	}
	for name, secs := range b.Slow {
		if a.Slow == nil {
			a.Slow = map[string]float64{}
		}
		a.Slow[name] = secs
	}
	return a, nil
}

func childAnalysis(dir string, names []string, limit time.Duration) (*analysis, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{"-analyze", dir}, names...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, errTimeout
	}
	if err != nil {
		return nil, fmt.Errorf("chordgo on %s %v: %v\n%s", dir, names, err, tail(stderr.String(), 4000))
	}
	a := &analysis{}
	if err := json.Unmarshal(stdout.Bytes(), a); err != nil {
		return nil, fmt.Errorf("chordgo on %s %v: %v", dir, names, err)
	}
	a.CPUSeconds = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return a, nil
}

// summary prints the counts, as BENCHMARKS.md quotes them.
func (s *session) summary() {
	w := os.Stdout
	fmt.Fprintf(w, "programs: %d (runs that failed: %d, seeds %v)\n", s.programs, len(s.failSeeds), s.failSeeds)
	fmt.Fprintf(w, "races seen by the detector: %d in %d programs (reports not placed in the program: %d)\n", s.detected, s.racy, s.other)
	fmt.Fprintf(w, "races found by chordgo: %d, of which the detector saw %d\n", s.found, s.foundSeen)
	fmt.Fprintf(w, "misses: %d in %d programs (seeds %v)\n", s.misses, len(s.missSeeds), s.missSeeds)
	for i, c := range knownCauses {
		fmt.Fprintf(w, "  %d put down to %s\n", s.byCause[i], c.why)
	}
	fmt.Fprintf(w, "  programs with a miss no known cause explains: %d (seeds %v)\n", len(s.newMissSeeds), s.newMissSeeds)
	fmt.Fprintf(w, "chordgo races the detector never saw in %d runs: %d in %d programs\n", s.runs, s.unseen, s.unseenProgs)
	fmt.Fprintf(w, "chordgo seconds per program, batches of %d (load included): median %.2f, max %.2f over %d batches\n",
		s.size, median(s.batchSeconds), slices.Max(append([]float64{0}, s.batchSeconds...)), len(s.batchSeconds))
	if len(s.aloneSeconds) > 0 {
		fmt.Fprintf(w, "chordgo seconds per program alone (load included): median %.2f, max %.2f wall; median %.2f, max %.2f CPU; over %d programs\n",
			median(s.aloneSeconds), slices.Max(s.aloneSeconds), median(s.aloneCPU), slices.Max(s.aloneCPU), len(s.aloneSeconds))
	}
	for _, seed := range slices.Sorted(maps.Keys(s.slow)) {
		fmt.Fprintf(w, "slow: seed %d took chordgo %.1f s alone, more than %v in wall and in CPU time (0: did not end in %v)\n", seed, s.slow[seed], slowLimit, slowGiveUp)
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Sorted(slices.Values(xs))
	return xs[len(xs)/2]
}
