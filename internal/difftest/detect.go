package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// modulePath is the module of a batch's temporary directory.
const modulePath = "difftestprogs"

// A pair is a race as two lines of one program's file, the smaller first.
type pair [2]int

func newPair(a, b int) pair {
	if a > b {
		a, b = b, a
	}
	return pair{a, b}
}

func comparePairs(a, b pair) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }

func (p pair) String() string { return fmt.Sprintf("%d-%d", p[0], p[1]) }

// A batch is a temporary module with one main package per program, in
// directories p0000, p0001, ...
type batch struct {
	dir   string
	names []string
}

// writeBatch writes the programs into dir, which must exist.
func writeBatch(dir string, srcs []string) (*batch, error) {
	b := &batch{dir: dir}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+modulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		return nil, err
	}
	for i, src := range srcs {
		name := fmt.Sprintf("p%04d", i)
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, name, "main.go"), []byte(src), 0o644); err != nil {
			return nil, err
		}
		b.names = append(b.names, name)
	}
	return b, nil
}

// fileSuffix ends the path of a program's file, however the directory
// is spelled.
func fileSuffix(name string) string {
	return string(filepath.Separator) + filepath.Join(name, "main.go")
}

var buildErrorRE = regexp.MustCompile(`(?m)^# ` + modulePath + `/(p\d+)$`)

// buildRace builds every program with -race into dir/bin in one go
// command, without inlining in the programs (an inlined call loses its
// frame in the race reports, which would then place an access at its
// caller's line), and returns the programs that did not compile with the
// compiler's messages. A program that fails does not stop the others.
func (b *batch) buildRace() (map[string]string, error) {
	cmd := exec.Command("go", "build", "-race", "-gcflags=-l", "-o", filepath.Join(b.dir, "bin")+string(filepath.Separator), "./...")
	cmd.Dir = b.dir
	out, err := cmd.CombinedOutput()
	failed := map[string]string{}
	if err == nil {
		return failed, nil
	}
	locs := buildErrorRE.FindAllSubmatchIndex(out, -1)
	if len(locs) == 0 {
		return nil, fmt.Errorf("go build -race: %v\n%s", err, out)
	}
	for i, l := range locs {
		end := len(out)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		failed[string(out[l[2]:l[3]])] = strings.TrimSpace(string(out[l[1]:end]))
	}
	return failed, nil
}

// detection is what the race detector saw in one program over its runs.
type detection struct {
	runs  map[pair]int // races, with the number of runs that reported each
	other int          // reports without a frame of the program's file on both sides
	fail  string       // a run that neither ended normally nor reported races
}

// detect runs each program's binary runs times with the race detector
// reporting every race, four binaries at a time (a run mostly waits: the
// race runtime sleeps at exit).
func (b *batch) detect(names []string, runs int, timeout time.Duration) map[string]*detection {
	out := map[string]*detection{}
	var mu sync.Mutex
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for name := range jobs {
				d := &detection{runs: map[pair]int{}}
				for range runs {
					b.runOnce(name, d, timeout)
				}
				mu.Lock()
				out[name] = d
				mu.Unlock()
			}
		})
	}
	for _, name := range names {
		jobs <- name
	}
	close(jobs)
	wg.Wait()
	return out
}

// exitRaces is the exit status of a run that reported races.
const exitRaces = 66

func (b *batch) runOnce(name string, d *detection, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(b.dir, "bin", name))
	// The race runtime sleeps a second at exit by default, for goroutines
	// still running to report their races: a tenth of it keeps most of
	// those and makes the runs ten times shorter.
	cmd.Env = append(os.Environ(), "GORACE=halt_on_error=0 atexit_sleep_ms=100 exitcode="+strconv.Itoa(exitRaces))
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	seen := parseReports(stderr.String(), fileSuffix(name))
	for p := range seen.races {
		d.runs[p]++
	}
	d.other += seen.other
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		d.fail = fmt.Sprintf("did not end in %v", timeout)
	case err == nil, errors.As(err, &exit) && exit.ExitCode() == exitRaces:
	// A map written concurrently may end the program with a fatal error
	// after the race is reported.
	case strings.Contains(stderr.String(), "concurrent map"):
	default:
		d.fail = fmt.Sprintf("%v:\n%s", err, tail(stderr.String(), 2000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// reports is what one run's output says.
type reports struct {
	races map[pair]bool
	other int
}

var frameRE = regexp.MustCompile(`^\s+(\S+\.go):(\d+)`)

// parseReports reads the race detector's reports in out: each race is the
// first frame in the program's file (the path ends in suffix) of the stack of the current access and of the
// previous one.
func parseReports(out, suffix string) reports {
	rs := reports{races: map[pair]bool{}}
	for _, block := range strings.Split(out, "==================\n") {
		if !strings.HasPrefix(block, "WARNING: DATA RACE\n") {
			continue
		}
		// Stacks are separated by blank lines: the access, the previous
		// access, then the goroutines' creation.
		stacks := strings.Split(block, "\n\n")
		if len(stacks) < 2 {
			rs.other++
			continue
		}
		a, b := topLine(stacks[0], suffix), topLine(stacks[1], suffix)
		if a == 0 || b == 0 {
			rs.other++
			continue
		}
		rs.races[newPair(a, b)] = true
	}
	return rs
}

// topLine returns the line of the first frame of stack in the file whose
// path ends in suffix, 0 if none or if the access is atomic: the race
// runtime's sync/atomic functions leave out their caller's frame, so the
// first frame in the file is the line that called the function making
// the atomic access.
func topLine(stack, suffix string) int {
	top := true
	sc := bufio.NewScanner(strings.NewReader(stack))
	for sc.Scan() {
		// A frame is a function, indented by two spaces, then its file.
		if fn, ok := strings.CutPrefix(sc.Text(), "  "); ok && !strings.HasPrefix(fn, " ") && top {
			if strings.HasPrefix(fn, "sync/atomic.") {
				return 0
			}
			top = false
		}
		m := frameRE.FindStringSubmatch(sc.Text())
		if m != nil && strings.HasSuffix(m[1], suffix) {
			line, _ := strconv.Atoi(m[2])
			return line
		}
	}
	return 0
}
