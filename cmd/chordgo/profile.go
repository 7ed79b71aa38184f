package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// profileFlags write pprof profiles of a command, to find where the time
// and memory of an analysis go (go tool pprof FILE).
type profileFlags struct {
	cpu, mem *string
	cpuFile  *os.File
	peak     *peakHeap
}

func addProfileFlags(fs *flag.FlagSet) *profileFlags {
	return &profileFlags{
		cpu: fs.String("cpuprofile", "", "write a CPU profile of the command to `file`"),
		mem: fs.String("memprofile", "", "write a heap profile to `file`, taken when the heap that survived a collection was largest (inuse_space: what held the memory at the peak; alloc_space: all allocations up to it)"),
	}
}

// start starts the CPU profile and the heap's watch, if asked for.
func (p *profileFlags) start() error {
	if *p.mem != "" {
		p.peak = watchPeakHeap()
	}
	if *p.cpu == "" {
		return nil
	}
	f, err := os.Create(*p.cpu)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("-cpuprofile: %v", err)
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and writes the heap profile.
func (p *profileFlags) stop() error {
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if err := p.cpuFile.Close(); err != nil {
			return err
		}
		p.cpuFile = nil
	}
	if p.peak == nil {
		return nil
	}
	profile, err := p.peak.stop()
	if err != nil {
		return fmt.Errorf("-memprofile: %v", err)
	}
	return os.WriteFile(*p.mem, profile, 0o666)
}

// peakHeap keeps the heap profile of the largest live heap seen: a
// profile at the end of a command shows what is left, not what held
// the memory when the process was biggest.
type peakHeap struct {
	done    chan struct{}
	stopped chan struct{}
	mu      sync.Mutex // sample, from the watch and from stop
	largest uint64
	// The runtime publishes the heap profile as of a collection when the
	// next one ends (runtime/mprof.go: it waits for the sweep's frees),
	// or at once in runtime.GC. So the profile written when the largest
	// live heap is seen, at collection peakCycle, is the collection's
	// before; it is written again on the first samples after the next
	// collection (rewrites of them), which show the peak's. Twice: the
	// runtime counts a collection just before it publishes its profile.
	// (Where two collections pass between samples, on small heaps, the
	// profile stays the one written at the peak.)
	peakCycle uint64
	rewrites  int
	profile   bytes.Buffer
	err       error
}

// peakInterval is how often the live heap is checked; peakGrowth how much
// it must grow past the last profile's to be profiled again (a profile
// is written in a few milliseconds, so even a steady climb costs little).
const (
	peakInterval = 50 * time.Millisecond
	peakGrowth   = 1.05
)

func watchPeakHeap() *peakHeap {
	p := &peakHeap{done: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(p.stopped)
		tick := time.NewTicker(peakInterval)
		defer tick.Stop()
		for {
			p.sample(false)
			select {
			case <-p.done:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

// sample profiles the heap if the live heap of the last collection
// passed the largest profiled by peakGrowth, and again after the next
// collection (see rewrites). published says that the caller has just run
// runtime.GC, which publishes the profile of its collection at once (and
// so replaced the snapshot a rewrite would have shown).
func (p *peakHeap) sample(published bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	live, cycle := s[0].Value.Uint64(), s[1].Value.Uint64()
	switch {
	case p.profile.Len() == 0 || float64(live) >= peakGrowth*float64(p.largest):
		p.largest, p.peakCycle, p.rewrites = live, cycle, 2
		if published {
			p.rewrites = 0
		}
	case p.rewrites > 0 && cycle == p.peakCycle+1 && !published:
		p.rewrites--
	default:
		return
	}
	p.profile.Reset()
	if err := pprof.Lookup("heap").WriteTo(&p.profile, 0); err != nil && p.err == nil {
		p.err = err
	}
}

// stop ends the watch, after a last collection and sample (the end may
// be the peak), and returns the profile of the peak. A rewrite that is
// due is made before: runtime.GC publishes its own collection's profile.
func (p *peakHeap) stop() ([]byte, error) {
	close(p.done)
	<-p.stopped
	p.sample(false)
	runtime.GC()
	p.sample(true)
	return p.profile.Bytes(), p.err
}
