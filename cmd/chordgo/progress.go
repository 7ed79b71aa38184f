package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// progress keeps one line on a terminal up to date with where the
// analysis stands: the phase and the time since the start, then, while
// programs are analyzed, the programs done of all and those in progress
// with the run of their demand loop. It
// writes nothing when its file is not a terminal (a CI log, a pipe, a
// file), so that logs keep only the report and the messages.
type progress struct {
	w     io.Writer // nil: not a terminal, nothing is written
	start time.Time

	mu       sync.Mutex
	what     string
	total    int
	finished int
	running  map[int]string // program -> "name run k"
	quit     chan struct{}
	stopped  bool
	width    int // of the line last drawn
}

// refresh is how often the line is redrawn.
const refresh = 250 * time.Millisecond

// maxLine is the longest line drawn: longer ones would wrap, and a
// carriage return would then not go back to their start.
const maxLine = 79

// newProgress returns a progress line on f if f is a terminal.
func newProgress(f *os.File) *progress {
	p := &progress{start: time.Now(), running: map[int]string{}, quit: make(chan struct{})}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		p.stopped = true
		return p
	}
	p.w = f
	go func() {
		tick := time.NewTicker(refresh)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-tick.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *progress) update(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		f()
	}
}

// phase says what the analysis does now.
func (p *progress) phase(what string) { p.update(func() { p.what = what }) }

// programs says how many programs are to be analyzed.
func (p *progress) programs(n int) { p.update(func() { p.total = n }) }

// run says that program n is in run k of its demand loop.
func (p *progress) run(n int, name string, k int) {
	p.update(func() { p.running[n] = fmt.Sprintf("%s run %d", name, k) })
}

// done says that program n is analyzed.
func (p *progress) done(n int) {
	p.update(func() {
		delete(p.running, n)
		p.finished++
	})
}

// stop erases the line and stops redrawing it; the report follows.
func (p *progress) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.stopped = true
	close(p.quit)
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
}

// draw writes the line over the last one (p.mu held).
func (p *progress) draw() {
	elapsed := time.Since(p.start).Round(time.Second)
	line := fmt.Sprintf("chordgo: %s (%s)", p.what, elapsed)
	if p.total > 0 {
		// The names last: a line cut short keeps the counts.
		line = fmt.Sprintf("chordgo: %d of %d programs done (%s)", p.finished, p.total, elapsed)
		for _, n := range slices.Sorted(maps.Keys(p.running)) {
			line += "; " + p.running[n]
		}
	}
	if r := []rune(line); len(r) > maxLine {
		line = string(r[:maxLine-3]) + "..."
	}
	width := len([]rune(line))
	pad := ""
	if p.width > width {
		pad = strings.Repeat(" ", p.width-width)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.width = width
}
