package mhp

import "go/types"

// inSequentialTests reports whether no instance of g1 runs at the same
// time as an instance of g2 because both run inside root tests (or
// benchmarks) that the test runner runs one after the other, or inside
// one root whose subtests run one after the other. Each of g1 and g2 must
// be a root or a goroutine the testing package starts and waits for,
// contained in a root (withinTest). Two roots: not both may call
// t.Parallel. One root: every goroutine between it and g1 or g2 is
// serial (a subtest that does not call t.Parallel, a benchmark run), and
// so is g1 or g2 itself (not both may be RunParallel's goroutines or
// parallel subtests).
//
// Sound by the testing package's contract: t.Run starts its subtest's
// goroutine and returns only when the subtest's function and cleanups
// have finished or it called t.Parallel, and a test does not finish
// before its parallel subtests have (tRunner waits for them); a
// benchmark's goroutines, for its first run (run1) and its timed runs
// (doBench), and those of its sub-benchmarks, which B.Run runs through
// both, end before the call that starts them returns, and RunParallel
// waits for its goroutines. So every goroutine instance started only that
// way inside root R begins after R begins and ends before R ends, and the
// runner starts the next root only after R ends (unless both are
// parallel). Inside one R, the serial instances nest like calls: each
// start blocks its parent while its goroutine runs, so two of them, or
// one and R, never run at the same time; and an instance that is not
// serial (a RunParallel goroutine, a parallel subtest) runs while its
// serial parent waits for it (in RunParallel's Wait, or after the parent
// test's function returned and before its tRunner ends), which no other
// serial instance of R overlaps either.
func (gs *Goroutines) inSequentialTests(g1, g2 uint32) bool {
	t1, ok1 := gs.withinTest(g1, map[uint32]bool{})
	t2, ok2 := gs.withinTest(g2, map[uint32]bool{})
	switch {
	case !ok1 || !ok2:
		return false
	case t1.root != t2.root:
		return !(gs.List[t1.root].Parallel && gs.List[t2.root].Parallel)
	}
	return t1.serialAbove && t2.serialAbove && (t1.serial || t2.serial)
}

// inTest places a goroutine inside a root test (withinTest).
type inTest struct {
	root uint32
	// serial: no two instances of the goroutine run at the same time
	// (each start blocks until its goroutine ends); serialAbove: so for
	// every goroutine between it and the root.
	serial, serialAbove bool
}

// withinTest returns the root test whose run contains every instance of
// g: g itself if it is a root, or the one root that contains every
// goroutine that may start g, when g's go statement is one where the
// testing package waits for the goroutine it starts (awaitedStart). A
// cycle of starts (busy) contains nothing.
func (gs *Goroutines) withinTest(g uint32, busy map[uint32]bool) (inTest, bool) {
	gr := &gs.List[g]
	if gr.Kind == RootGoroutine {
		return inTest{root: g, serial: true, serialAbove: true}, true
	}
	if gr.Kind != GoGoroutine || len(gr.Parents) == 0 || busy[g] {
		return inTest{}, false
	}
	awaited, serial := gs.awaitedStart(gr.Site)
	if !awaited {
		return inTest{}, false
	}
	busy[g] = true
	defer delete(busy, g)
	t := inTest{serial: serial && !gr.Parallel, serialAbove: true}
	for k, p := range gr.Parents {
		pt, ok := gs.withinTest(p, busy)
		if !ok || k > 0 && pt.root != t.root {
			return inTest{}, false
		}
		t.root, t.serialAbove = pt.root, t.serialAbove && pt.serial && pt.serialAbove
	}
	return t, true
}

// awaitedStart reports whether go site i is one where the testing package
// starts a test's or benchmark's goroutine and waits for it to end before
// the starting call returns, and whether each such call waits for its one
// goroutine before the next can start one (serial): (*T).Run's (serial
// unless the subtest calls t.Parallel, which the caller checks), (*B).run1's
// and (*B).doBench's, which start the benchmark function's goroutine and
// receive from b.signal, sent when it ends, and (*B).RunParallel's, which
// starts several and waits for them all on a WaitGroup (not serial).
func (gs *Goroutines) awaitedStart(i uint32) (awaited, serial bool) {
	fn := gs.facts.Call(i).Parent()
	recv := fn.Signature.Recv()
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "testing" || recv == nil {
		return false, false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return false, false
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok {
		return false, false
	}
	// Receiver and name, not fn.String(), which formats: the parallel
	// stage asks this for each goroutine pair.
	switch typ, name := named.Obj().Name(), fn.Name(); {
	case typ == "T" && name == "Run", typ == "B" && (name == "run1" || name == "doBench"):
		return true, true
	case typ == "B" && name == "RunParallel":
		return true, false
	}
	return false, false
}
