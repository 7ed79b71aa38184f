package mhp

// inSequentialTests reports whether no instance of g1 runs at the same
// time as an instance of g2 because both run inside root tests that the
// test runner runs one after the other, or inside one test whose subtests
// run one after the other. Each of g1 and g2 must be a root test or a
// subtest goroutine contained in one (withinTest): the two roots differ
// and may not both call t.Parallel, or they are one root and no subtest
// goroutine between it and g1 or g2 may call t.Parallel.
//
// Sound by the testing package's contract: t.Run starts its subtest's
// goroutine and returns only when the subtest's function and cleanups
// have finished or it called t.Parallel, and a test does not finish
// before its parallel subtests have (tRunner waits for them). So every
// instance of a subtest goroutine that only t.Run inside test R (or inside
// R's subtests) starts begins after R begins and ends before R ends, and
// the runner starts the next test only after R ends (unless both are
// parallel). Inside one R without t.Parallel below it, each t.Run blocks
// its caller while its subtest runs: the subtests' instances nest like
// calls, and two of them, or one and R, never run at the same time.
func (gs *Goroutines) inSequentialTests(g1, g2 uint32) bool {
	r1, serial1, ok1 := gs.withinTest(g1, map[uint32]bool{})
	r2, serial2, ok2 := gs.withinTest(g2, map[uint32]bool{})
	switch {
	case !ok1 || !ok2:
		return false
	case r1 != r2:
		return !(gs.List[r1].Parallel && gs.List[r2].Parallel)
	}
	return serial1 && serial2
}

// withinTest returns the root test whose run contains every instance of
// g: g itself if it is a root, or the one root that contains every
// goroutine that may start g, when g's go statement is the one in
// testing's (*T).Run. serial tells whether no subtest goroutine from the
// root down to g may call t.Parallel. A cycle of starts (busy) contains
// nothing.
func (gs *Goroutines) withinTest(g uint32, busy map[uint32]bool) (root uint32, serial, ok bool) {
	gr := &gs.List[g]
	if gr.Kind == RootGoroutine {
		return g, true, true
	}
	if gr.Kind != GoGoroutine || len(gr.Parents) == 0 || busy[g] || !gs.startedByRun(gr.Site) {
		return 0, false, false
	}
	busy[g] = true
	defer delete(busy, g)
	serial = !gr.Parallel
	for k, p := range gr.Parents {
		r, s, ok := gs.withinTest(p, busy)
		if !ok || k > 0 && r != root {
			return 0, false, false
		}
		root, serial = r, serial && s
	}
	return root, serial, true
}

// startedByRun reports whether go site i is the go statement of testing's
// (*T).Run, which starts a subtest.
func (gs *Goroutines) startedByRun(i uint32) bool {
	fn := gs.facts.Call(i).Parent()
	return fn.Pkg != nil && fn.Pkg.Pkg.Path() == "testing" && fn.String() == "(*testing.T).Run"
}
