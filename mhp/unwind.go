package mhp

import (
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// unwinding finds, by function, where a panic does not end the program,
// so that the function's deferred calls may run there while the
// program goes on (local):
//
//   - recoverable: a panic in m may be recovered by a frame of m's
//     goroutine: m defers a function that calls recover, or a caller of m
//     (by a plain or deferred call) is recoverable, or m may be called
//     by code the call graph does not show. That is every function but
//     those reached only from main.main, the package initializers and
//     go statements: a test is called by the testing package's tRunner,
//     which recovers a test's panic to report it and run its cleanups;
//   - goexits: a call of m may run runtime.Goexit (t.FailNow does), which
//     runs the goroutine's deferred calls and lets the program go on.
//
// Elsewhere a panic ends the program (the README's assumption): the
// deferred calls it runs on the way are not paired with what other
// goroutines do, and m's deferred calls run only at its returns, after
// what m completed on every path to them. So `defer db.Close()` before a
// loop that drains a checker goroutine's channel comes after the
// goroutine in main, and not in a test.
func (o *Order) unwinding() {
	f := o.f
	nM := f.Size(pointsto.DomM)
	callees := make([][]uint32, nM) // by plain and deferred calls
	called := make([]bool, nM)      // by any call site, go statements too
	var goexit []uint32
	for m, sites := range o.cg.sites {
		for _, i := range sites {
			for _, m2 := range o.callees(i) {
				called[m2] = true
				if o.cg.kind[i] != goCallKind {
					callees[m] = append(callees[m], m2)
				}
			}
		}
		if fn := f.Func(uint32(m)); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "runtime" && fn.Name() == "Goexit" {
			goexit = append(goexit, uint32(m))
		}
	}
	o.recoverable = make([]bool, nM)
	var work []uint32
	for m := range nM {
		if o.recovers(uint32(m)) || !called[m] && !programEntry(f.Func(uint32(m))) {
			o.recoverable[m] = true
			work = append(work, uint32(m))
		}
	}
	spread(o.recoverable, callees, work)
	callers := make([][]uint32, nM)
	for m, cs := range callees {
		for _, m2 := range cs {
			callers[m2] = append(callers[m2], uint32(m))
		}
	}
	o.goexits = make([]bool, nM)
	for _, m := range goexit {
		o.goexits[m] = true
	}
	spread(o.goexits, callers, goexit)
}

// spread marks what the marked functions in work lead to by next.
// Termination: a function is queued only when it becomes marked.
func spread(marked []bool, next [][]uint32, work []uint32) {
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, m2 := range next[m] {
			if !marked[m2] {
				marked[m2] = true
				work = append(work, m2)
			}
		}
	}
}

// programEntry reports whether the runtime calls fn with no frame that
// recovers above it: main.main and a package initializer.
func programEntry(fn *ssa.Function) bool {
	if fn == nil || fn.Pkg == nil || fn.Parent() != nil || fn.Signature.Recv() != nil {
		return false
	}
	return fn.Name() == "main" && fn.Pkg.Pkg.Name() == "main" || fn.Name() == "init" && fn.Synthetic != ""
}

// unwindsAt reports whether m's deferred calls may run at instr, which
// may panic, while the program goes on: a panic there may be recovered,
// or instr is a call that may run runtime.Goexit.
func (o *Order) unwindsAt(m uint32, instr ssa.Instruction) bool {
	if o.recoverable[m] {
		return true
	}
	i, ok := o.cg.callOf[instr]
	if !ok {
		return false
	}
	for _, m2 := range o.callees(i) {
		if o.goexits[m2] {
			return true
		}
	}
	return false
}
