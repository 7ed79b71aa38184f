package confirm

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chordgo/chordgo/internal/overlay"
	"github.com/chordgo/chordgo/reports"
)

// Mode says which runs confirm makes.
type Mode int

const (
	Both       Mode = iota // undirected runs, then directed runs for the races they did not confirm
	Undirected             // only undirected runs
	Directed               // only directed runs
)

// ParseMode reads a mode by name: both, undirected, directed.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "both":
		return Both, nil
	case "undirected":
		return Undirected, nil
	case "directed":
		return Directed, nil
	}
	return 0, fmt.Errorf("unknown mode %q: want both, undirected or directed", s)
}

// A Program is a package that go test or go build makes into one process.
type Program struct {
	Dir  string // the package's directory, where it is built and run
	Name string // its import path, for messages
	Main bool   // a main package, run as a command; otherwise its tests are run
}

// A Root is a function a race's roots name (reports.Access.Roots), as the
// command that runs it sees it.
type Root struct {
	Program Program
	// Test is the name go test -run selects it by ("": no test, as for
	// main, init functions and TestMain, which run whenever the program
	// does); Benchmark marks a benchmark, selected by -bench.
	Test      string
	Benchmark bool
}

// Options say how to run the races' programs.
type Options struct {
	Count int           // runs of each program: go test -count, or processes for a main package and directed runs
	Mode  Mode          // which runs to make
	Wait  time.Duration // how long a directed run's hook holds the first side for the other
	// RunTimeout bounds each process: a directed schedule can make a
	// program deadlock (0: no bound).
	RunTimeout time.Duration
	Tags       []string // build tags, as for the analysis
	// Roots maps the SSA names of the races' roots to what runs them.
	Roots map[string]Root
	// Scope says whether a file is in the packages analyzed: a dynamic
	// race with an access there that matches no static race is a miss.
	Scope func(file string) bool
	// AlsoRun are roots to run in the undirected runs though no race
	// names them, to look for races chordgo missed.
	AlsoRun []Root
	// Log, if set, gets a line for each build and run.
	Log io.Writer
}

// Race is a static race with what its runs found, as printed by chordgo
// confirm -json: the race as chordgo check prints it, and three fields.
type Race struct {
	reports.Race
	Confirmed bool     `json:"confirmed"`
	Witness   *Witness `json:"witness,omitempty"` // the run that confirmed it
	Note      string   `json:"note,omitempty"`    // why it is not confirmed, or why no directed run was made
}

// A Witness is the run in which the race detector reported a race, and
// its report.
type Witness struct {
	Program  string   `json:"program"`        // the import path of the package run
	Test     string   `json:"test,omitempty"` // the test that was running
	Directed bool     `json:"directed"`
	Schedule []string `json:"schedule,omitempty"` // what the hooks of a directed run did
	Report   string   `json:"report"`             // the race detector's report
}

// A Miss is a race the race detector reported and chordgo did not.
type Miss struct {
	Accesses [2]string `json:"accesses"` // file:line of each side, "" where the report has no frame outside the runtime
	Witness  Witness   `json:"witness"`
}

// Result is what confirm found.
type Result struct {
	Races  []Race
	Misses []Miss
	// Errors are the programs that could not be built or run.
	Errors []string
	// Stopped, if set, is why runs stopped early (ctx ended); the races
	// not run yet say so in their notes.
	Stopped error
}

// A Position is file:line:col as the static report prints it.
type Position struct {
	File         string
	Line, Column int
}

func (p Position) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column) }

// fileLine is the position as the race detector prints it.
func (p Position) fileLine() string { return p.File + ":" + strconv.Itoa(p.Line) }

// ParsePosition reads "file:line:col".
func ParsePosition(s string) (Position, error) {
	i := strings.LastIndexByte(s, ':')
	j := strings.LastIndexByte(s[:max(i, 0)], ':')
	if j < 0 {
		return Position{}, fmt.Errorf("position %q: want file:line:col", s)
	}
	line, err1 := strconv.Atoi(s[j+1 : i])
	col, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil {
		return Position{}, fmt.Errorf("position %q: want file:line:col", s)
	}
	return Position{File: filepath.Clean(s[:j]), Line: line, Column: col}, nil
}

// confirmer holds one Confirm call's state.
type confirmer struct {
	opts   Options
	tmp    string
	res    *Result
	pos    [][2]Position
	misses map[string]bool // the misses found, by their positions
	binSeq int
	// schedule is what the hooks of the last directed run did: it says
	// why a race was not confirmed.
	schedule []string
}

// Confirm runs, one program at a time, the roots of each static race
// under the race detector, and marks a race confirmed when a dynamic
// report has both its positions (file:line, either order; an atomic
// access, which the race detector prints without its caller, matches any
// report side of the same operation that has no frame outside the
// runtime). Dynamic races with an access in Scope that match no static
// race are misses. Undirected runs build each program once and run its
// tests with -count; directed runs build, for each race, a copy of the
// program with a hook before each of its accesses (hook.go). When ctx
// ends, the runs stop and the result says so.
func Confirm(ctx context.Context, races []reports.Race, opts Options) (*Result, error) {
	if opts.Count < 1 {
		return nil, fmt.Errorf("count %d: want at least 1 run", opts.Count)
	}
	if opts.Scope == nil {
		opts.Scope = func(string) bool { return true }
	}
	c := &confirmer{opts: opts, res: &Result{}, misses: map[string]bool{}}
	for _, r := range races {
		var p [2]Position
		race := Race{Race: r}
		for k, a := range r.Accesses {
			var err error
			if p[k], err = ParsePosition(a.Pos); err != nil {
				// No report can match it: the runs are still made, for misses.
				race.Note = joinNotes(race.Note, fmt.Sprintf("access %d cannot be matched: %v", k+1, err))
			}
		}
		c.pos = append(c.pos, p)
		c.res.Races = append(c.res.Races, race)
	}
	var err error
	if c.tmp, err = os.MkdirTemp("", "chordgo-confirm-"); err != nil {
		return nil, err
	}
	defer os.RemoveAll(c.tmp)
	if opts.Mode != Directed {
		c.undirected(ctx)
	}
	if opts.Mode != Undirected {
		if err := c.directed(ctx); err != nil {
			return nil, err
		}
	}
	if err := context.Cause(ctx); err != nil {
		c.res.Stopped = err
	}
	return c.res, nil
}

// addRoots adds race i's roots to plans: the programs that run its
// accesses, and the tests and benchmarks of each that do.
func (c *confirmer) addRoots(plans *[]*plan, i int) error {
	for _, a := range c.res.Races[i].Accesses {
		for _, name := range a.Roots {
			root, ok := c.opts.Roots[name]
			if !ok {
				return fmt.Errorf("no program runs root %s", name)
			}
			planFor(plans, root.Program).add(root, i)
		}
	}
	return nil
}

// planFor returns the plan of prog in plans, adding one if there is none.
func planFor(plans *[]*plan, prog Program) *plan {
	for _, p := range *plans {
		if p.prog == prog {
			return p
		}
	}
	p := &plan{prog: prog}
	*plans = append(*plans, p)
	return p
}

// A plan is one program to build and run, the tests to run in it, and
// the races it is run for.
type plan struct {
	prog              Program
	tests, benchmarks []string
	races             []int
}

// add adds root to the plan, run for race (-1: for none).
func (p *plan) add(root Root, race int) {
	switch {
	case root.Test == "":
	case root.Benchmark:
		p.benchmarks = appendNew(p.benchmarks, root.Test)
	default:
		p.tests = appendNew(p.tests, root.Test)
	}
	if race >= 0 && !slices.Contains(p.races, race) {
		p.races = append(p.races, race)
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// undirected builds each program the races' roots are in once, and runs
// their tests with -count (a main package: Count processes).
func (c *confirmer) undirected(ctx context.Context) {
	var plans []*plan
	for i := range c.res.Races {
		if err := c.addRoots(&plans, i); err != nil {
			c.res.Races[i].Note = err.Error()
		}
	}
	for _, root := range c.opts.AlsoRun {
		planFor(&plans, root.Program).add(root, -1)
	}
	slices.SortFunc(plans, func(a, b *plan) int { return cmp.Compare(a.prog.Dir, b.prog.Dir) })
	for _, p := range plans {
		if ctx.Err() != nil {
			c.notRun(p.races, context.Cause(ctx))
			continue
		}
		bin, err := c.build(ctx, p.prog, "")
		if err != nil {
			c.failed(p, err, false)
			continue
		}
		processes, count := c.opts.Count, 1
		if !p.prog.Main {
			processes, count = 1, c.opts.Count
		}
		for range processes {
			if len(p.races) > 0 && c.allConfirmed(p.races) {
				break
			}
			if err := c.run(ctx, p, bin, count, false); err != nil {
				c.failed(p, err, false)
				break
			}
		}
		for _, i := range p.races {
			if r := &c.res.Races[i]; !r.Confirmed && r.Note == "" {
				r.Note = fmt.Sprintf("not seen in %s of %s", plural(c.opts.Count, "run"), p.describe())
			}
		}
	}
}

// directed builds, for each race not confirmed yet, its programs with a
// hook before each of its two accesses, and runs each 2*Count times: in
// turn the later and the held goroutine going first when the hooks meet.
func (c *confirmer) directed(ctx context.Context) error {
	forbidden, err := overlay.Unreplaceable()
	if err != nil {
		return err
	}
	for i := range c.res.Races {
		r := &c.res.Races[i]
		if r.Confirmed {
			continue
		}
		if ctx.Err() != nil {
			c.notRun([]int{i}, context.Cause(ctx))
			continue
		}
		var plans []*plan
		if err := c.addRoots(&plans, i); err != nil {
			r.Note = err.Error()
			continue
		}
		if c.pos[i][0].File == "" || c.pos[i][1].File == "" {
			continue
		}
		sites, pkg, err := placeHooks(c.pos[i], fieldName(r.Location), forbidden)
		if err != nil {
			r.Note = joinNotes(r.Note, "no directed run: "+err.Error())
			continue
		}
		dir := filepath.Join(c.tmp, "overlay"+strconv.Itoa(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		var sides [2]string
		for k, a := range r.Accesses {
			sides[k] = fmt.Sprintf("%s at %s:%d", a.Op, filepath.Base(c.pos[i][k].File), c.pos[i][k].Line)
		}
		overlayFile, err := writeOverlay(dir, sites, pkg, sides, c.opts.Wait)
		if err != nil {
			return err
		}
		ran := true
		c.schedule = nil
		for _, p := range plans {
			bin, err := c.build(ctx, p.prog, overlayFile)
			if err != nil {
				c.failed(p, err, true)
				ran = false
				break
			}
		runs:
			for range c.opts.Count {
				for _, heldFirst := range []string{"0", "1"} {
					if r.Confirmed {
						break runs
					}
					if err := c.run(ctx, p, bin, 1, true, heldFirstEnv+"="+heldFirst); err != nil {
						c.failed(p, err, true)
						ran = false
						break runs
					}
				}
			}
		}
		if !r.Confirmed && ran && ctx.Err() == nil {
			var names []string
			for _, p := range plans {
				names = append(names, p.describe())
			}
			hooks := "no hook was reached"
			if len(c.schedule) > 0 {
				hooks = "the last one's hooks: " + strings.Join(c.schedule, "; ")
			}
			r.Note = joinNotes(r.Note, fmt.Sprintf("not seen in %s of %s with hooks before both accesses, each side going first in half of them (%s)", plural(2*c.opts.Count, "directed run"), strings.Join(names, ", "), hooks))
		}
	}
	return nil
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func (p *plan) describe() string {
	switch {
	case p.prog.Main:
		return p.prog.Name
	case len(p.tests)+len(p.benchmarks) == 0:
		return p.prog.Name + " (no test: its init and TestMain)"
	}
	return p.prog.Name + " " + strings.Join(append(slices.Clone(p.tests), p.benchmarks...), ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (c *confirmer) allConfirmed(races []int) bool {
	for _, i := range races {
		if !c.res.Races[i].Confirmed {
			return false
		}
	}
	return true
}

func (c *confirmer) notRun(races []int, cause error) {
	for _, i := range races {
		if r := &c.res.Races[i]; !r.Confirmed {
			r.Note = joinNotes(r.Note, "not run: "+cause.Error())
		}
	}
}

// failed records that program p could not be built or run: an error of
// the program's, or, in a directed run, a note on the race (the hooks may
// be at fault).
func (c *confirmer) failed(p *plan, err error, directed bool) {
	if ctxErr := (*stoppedError)(nil); errors.As(err, &ctxErr) {
		c.notRun(p.races, ctxErr.cause)
		return
	}
	if directed {
		for _, i := range p.races {
			c.res.Races[i].Note = joinNotes(c.res.Races[i].Note, "directed run failed: "+err.Error())
		}
		return
	}
	msg := fmt.Sprintf("%s: %v", p.prog.Name, err)
	if !slices.Contains(c.res.Errors, msg) {
		c.res.Errors = append(c.res.Errors, msg)
	}
	for _, i := range p.races {
		if r := &c.res.Races[i]; !r.Confirmed {
			r.Note = joinNotes(r.Note, "could not run "+p.prog.Name+": see the errors")
		}
	}
}

// stoppedError is a build or run that ctx ended.
type stoppedError struct{ cause error }

func (e *stoppedError) Error() string { return e.cause.Error() }

// build builds the program with -race (and the overlay, if not ""), in
// its directory, and returns the binary.
func (c *confirmer) build(ctx context.Context, prog Program, overlayFile string) (string, error) {
	c.binSeq++
	bin := filepath.Join(c.tmp, "bin"+strconv.Itoa(c.binSeq))
	args := []string{"build", "-race", "-o", bin}
	if !prog.Main {
		args = []string{"test", "-race", "-c", "-vet=off", "-o", bin}
	}
	if len(c.opts.Tags) > 0 {
		args = append(args, "-tags", strings.Join(c.opts.Tags, ","))
	}
	if overlayFile != "" {
		args = append(args, "-overlay", overlayFile)
	}
	args = append(args, ".")
	c.logf("chordgo confirm: go %s (in %s)", strings.Join(args, " "), prog.Dir)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = prog.Dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", &stoppedError{context.Cause(ctx)}
	}
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("go %s made no binary (no test files?)", strings.Join(args, " "))
	}
	return bin, nil
}

// run runs the binary once in the program's directory with the race
// detector's reports on and halt_on_error off, and env added to its
// environment, and matches its reports.
func (c *confirmer) run(ctx context.Context, p *plan, bin string, count int, directed bool, env ...string) error {
	var args []string
	if !p.prog.Main {
		args = []string{"-test.v", "-test.count", strconv.Itoa(count), "-test.run", anchored(p.tests)}
		if len(p.benchmarks) > 0 {
			args = append(args, "-test.bench", anchored(p.benchmarks), "-test.benchtime", "1x")
		}
	}
	c.logf("chordgo confirm: running %s", p.describe())
	runCtx := ctx
	if c.opts.RunTimeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, c.opts.RunTimeout)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, bin, args...)
	cmd.Dir = p.prog.Dir
	cmd.Env = append(append(os.Environ(), "GORACE=halt_on_error=0"), env...)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return &stoppedError{context.Cause(ctx)}
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return err
	}
	if runCtx.Err() != nil {
		// Killed: what it reported before still counts.
		for _, i := range p.races {
			if r := &c.res.Races[i]; !r.Confirmed {
				r.Note = joinNotes(r.Note, fmt.Sprintf("a %s did not end within %v and was killed", runKind(directed), c.opts.RunTimeout))
			}
		}
	}
	dyn, err := Parse(out.String())
	if err != nil {
		return err
	}
	var schedule []string
	for line := range strings.Lines(out.String()) {
		if s, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), schedulePrefix); ok {
			schedule = append(schedule, s)
		}
	}
	for _, d := range dyn {
		w := Witness{Program: p.prog.Name, Test: d.Test, Directed: directed, Schedule: schedule, Report: d.Text}
		c.match(d, w)
	}
	if directed {
		c.schedule = schedule
	}
	return nil
}

func runKind(directed bool) string {
	if directed {
		return "directed run"
	}
	return "run"
}

// anchored is the -run or -bench pattern that selects exactly names.
func anchored(names []string) string {
	if len(names) == 0 {
		return "^$"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}

// match confirms the static races dynamic race d has both positions of,
// or records it as a miss.
func (c *confirmer) match(d DynamicRace, w Witness) {
	found := false
	for i := range c.res.Races {
		r := &c.res.Races[i]
		if !c.matches(i, d) {
			continue
		}
		found = true
		if !r.Confirmed {
			r.Confirmed, r.Note = true, ""
			wc := w
			r.Witness = &wc
		}
	}
	if found {
		return
	}
	var sides [2]string
	inScope := false
	for k, a := range d.Accesses {
		if f, ok := c.programFrame(a); ok {
			sides[k] = f.Position()
			inScope = inScope || c.opts.Scope(f.File)
		}
	}
	// The race detector prints the later access first, and which one
	// that is varies between runs: a miss names its sides in one order,
	// a side without a frame last.
	slices.SortFunc(sides[:], func(a, b string) int {
		if (a == "") != (b == "") {
			return strings.Compare(b, a)
		}
		return strings.Compare(a, b)
	})
	key := strings.Join(sides[:], "\x00")
	if inScope && !c.misses[key] {
		c.misses[key] = true
		c.res.Misses = append(c.res.Misses, Miss{Accesses: sides, Witness: w})
	}
}

func (c *confirmer) matches(i int, d DynamicRace) bool {
	s := c.res.Races[i].Accesses
	p := c.pos[i]
	if p[0].File == "" || p[1].File == "" {
		return false
	}
	side := func(k int, a DynamicAccess) bool {
		top, ok := a.Top()
		if !ok {
			return s[k].Atomic && s[k].Op == a.Op
		}
		f, _ := c.programFrame(a)
		return top.Position() == p[k].fileLine() || f.Position() == p[k].fileLine()
	}
	return side(0, d.Accesses[0]) && side(1, d.Accesses[1]) || side(0, d.Accesses[1]) && side(1, d.Accesses[0])
}

// programFrame returns the access's innermost frame in Scope, where
// chordgo reports it when the access is made inside a dependency (a
// reflect.Value method, say), or else its innermost frame outside the
// runtime.
func (c *confirmer) programFrame(a DynamicAccess) (Frame, bool) {
	for _, f := range a.Stack {
		if c.opts.Scope(f.File) {
			return f, true
		}
	}
	return a.Top()
}

func (c *confirmer) logf(format string, args ...any) {
	if c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, format+"\n", args...)
	}
}

// Summary is the result in a line: the races confirmed, by which runs,
// and the misses.
func (r *Result) Summary() string {
	confirmed, directed := 0, 0
	for _, race := range r.Races {
		if race.Confirmed {
			confirmed++
			if race.Witness.Directed {
				directed++
			}
		}
	}
	return fmt.Sprintf("%s: %d confirmed (%d by directed runs), %d not confirmed; %s missed",
		plural(len(r.Races), "access pair"), confirmed, directed, len(r.Races)-confirmed, plural(len(r.Misses), "race"))
}

// fieldName returns the name of the field a race is on ("": not a field).
func fieldName(loc reports.Location) string {
	if loc.Kind != "field" {
		return ""
	}
	return loc.Field[strings.LastIndex(loc.Field, ").")+2:]
}
