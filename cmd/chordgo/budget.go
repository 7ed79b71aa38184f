package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// memEnv names the environment variable that sets the default of -mem.
const memEnv = "CHORDGO_MEM"

// budgetFlags are the limits on a command's time and memory.
type budgetFlags struct {
	timeout *time.Duration
	mem     *byteSize
}

func addBudgetFlags(fs *flag.FlagSet) *budgetFlags {
	mem := new(byteSize)
	def, err := defaultMem()
	if err != nil {
		// Reported when the budget is used; the flag's default is then none.
		*mem = byteSize{err: err}
	} else {
		*mem = def
	}
	fs.Var(mem, "mem", "stop the analysis when the Go heap that survives a collection nears `size` (e.g. 8GiB, 500MB; 0: no budget); default: "+memEnv+" or half of the machine's memory")
	return &budgetFlags{
		timeout: fs.Duration("timeout", 0, "stop the analysis after `duration` (e.g. 90s, 10m; 0: no limit)"),
		mem:     mem,
	}
}

// byteSize is a number of bytes with an optional unit (B, KB, MB, GB,
// KiB, MiB, GiB, TB, TiB).
type byteSize struct {
	n    int64
	text string // as the user wrote it
	err  error  // the default could not be read (CHORDGO_MEM malformed)
}

func (b *byteSize) String() string {
	switch {
	case b == nil || b.n == 0:
		return "0"
	case b.text != "":
		return b.text
	}
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b.n%u.size == 0 {
			return strconv.FormatInt(b.n/u.size, 10) + u.name
		}
		if b.n >= u.size {
			return strconv.FormatFloat(float64(b.n)/float64(u.size), 'f', 1, 64) + u.name
		}
	}
	return strconv.FormatInt(b.n, 10) + "B"
}

func (b *byteSize) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*b = byteSize{n: n, text: s}
	return nil
}

var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	x, err := strconv.ParseFloat(num, 64)
	scale, ok := sizeUnits[unit]
	if err != nil || !ok || x*scale >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: want a number of bytes with an optional unit (KB, MB, GB, KiB, MiB, GiB)", s)
	}
	return int64(x * scale), nil
}

// defaultMem is CHORDGO_MEM if set, else half of the machine's memory (the
// smaller of physical memory and the cgroup's limit); 0 where neither can
// be read.
func defaultMem() (byteSize, error) {
	if s, ok := os.LookupEnv(memEnv); ok {
		n, err := parseSize(s)
		if err != nil {
			return byteSize{}, fmt.Errorf("%s: %v", memEnv, err)
		}
		return byteSize{n: n, text: s}, nil
	}
	return byteSize{n: machineMemory() / 2}, nil
}

// machineMemory returns the memory this process may use: MemTotal of
// /proc/meminfo, or the cgroup's limit if smaller; 0 if unknown.
func machineMemory() int64 {
	var total int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if kb, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				total = n << 10
			}
		}
		f.Close()
	}
	for _, file := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}

// A budgetError says which budget ended the analysis and what to try.
type budgetError struct {
	what, advice string
}

func (e *budgetError) Error() string { return e.what }

var errInterrupted = &budgetError{"interrupted", "run again without interrupting it"}

// start returns a context that ends when a budget runs out or on SIGINT,
// with a budgetError as its cause, and a function that releases it and
// restores the memory limit. While the context lives, the Go runtime's
// memory limit is the budget (the collector works harder as the heap nears
// it) and a watchdog ends the context when it cannot keep the heap below.
func (b *budgetFlags) start() (context.Context, func(), error) {
	if b.mem.err != nil {
		return nil, nil, b.mem.err
	}
	if *b.timeout < 0 {
		return nil, nil, fmt.Errorf("-timeout %v: want a positive duration, or 0 for no limit", *b.timeout)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	var cleanup []func()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	go func() {
		if _, ok := <-interrupts; ok {
			signal.Stop(interrupts) // a second interrupt ends the process at once
			cancel(errInterrupted)
		}
	}()
	cleanup = append(cleanup, func() { signal.Stop(interrupts); close(interrupts) })
	if d := *b.timeout; d > 0 {
		t := time.AfterFunc(d, func() {
			cancel(&budgetError{fmt.Sprintf("the time budget (-timeout %v) ran out", d),
				"try a larger -timeout, -demand=false, fewer packages, -tests=false, or -run to select fewer tests"})
		})
		cleanup = append(cleanup, func() { t.Stop() })
	}
	if limit := b.mem.n; limit > 0 {
		old := debug.SetMemoryLimit(limit)
		done := make(chan struct{})
		go watchMemory(limit, done, func() {
			cancel(&budgetError{fmt.Sprintf("the memory budget (-mem %v) ran out", b.mem),
				"try a larger -mem (or " + memEnv + "), -demand=false, fewer packages, -tests=false, or -run to select fewer tests"})
		})
		cleanup = append(cleanup, func() { close(done); debug.SetMemoryLimit(old) })
	}
	return ctx, func() {
		for _, f := range cleanup {
			f()
		}
		cancel(nil)
	}, nil
}

// startShare is the share of the memory budget below which the heap that
// survived the last collection lets one more program start beside those
// in progress: the watchdog stops at 90%, and programs of one module
// tend to be alike, so two fit when one takes less than half.
const startShare = 0.45

// mayStart says whether one more program's analysis may start beside
// those in progress without passing the memory budget.
func (b *budgetFlags) mayStart() bool {
	if b.mem.n <= 0 {
		return true
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	return float64(sample[0].Value.Uint64()) < startShare*float64(b.mem.n)
}

// watchMemory calls exceeded once the heap that survived the last
// collection passes 90% of limit (the collector cannot make room and would
// run without pause), or the memory the runtime holds passes 110% of it
// (the runtime's limit is not holding), checking every 50ms until done.
func watchMemory(limit int64, done <-chan struct{}, exceeded func()) {
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		metrics.Read(samples)
		live := samples[0].Value.Uint64()
		held := samples[1].Value.Uint64() - samples[2].Value.Uint64()
		if float64(live) > 0.9*float64(limit) || float64(held) > 1.1*float64(limit) {
			exceeded()
			return
		}
		select {
		case <-done:
			return
		case <-tick.C:
		}
	}
}

// budgetOf returns the budget that err says ran out, or nil.
func budgetOf(err error) *budgetError {
	var be *budgetError
	if errors.As(err, &be) {
		return be
	}
	return nil
}
