package condmustnot

import "slices"

// ViaCalls returns the locks that must be held at access e where goroutine
// g runs it inside the calls of chain, sorted by Ptr: chain[0] is a call
// site (a P id) that calls e's function, chain[j+1] one that calls the
// function making chain[j]. Each callee's entry is what its one call in
// the chain passes in, not the meet over all its calls in g (In), so a
// helper called both with and without a lock holds it on the path that
// takes it. ok is false when some frame of the chain is not a plain call
// into code the dataflow runs on (a go or deferred call, a call from or
// into the synchronization primitives or the runtime): no lockset is
// known there.
//
// Sound for every run of e in g whose call stack ends with the chain's
// calls: the outermost caller's entry holds what every call of it made in
// g holds (entryIn), the dataflow carries that to the call, the call
// passes it into its callee as meetCalls passes each call's part, and so
// on down to e.
func (gl *GoroutineLocksets) ViaCalls(e, g uint32, chain []uint32) (held []Held, ok bool) {
	a := gl.a
	f := a.f
	if len(chain) == 0 {
		return nil, false
	}
	outer := chain[len(chain)-1]
	if !a.flow[f.Caller(outer)] {
		return nil, false
	}
	s := gl.lockset(f.Caller(outer), g, f.Call(outer))
	for j := len(chain) - 1; j >= 0; j-- {
		i := chain[j]
		if a.goCall[i] || a.defer_[i] {
			return nil, false
		}
		callee, at := f.AccessFunc(e), f.Access(e)
		if j > 0 {
			callee, at = f.Caller(chain[j-1]), f.Call(chain[j-1])
		}
		if !a.flow[callee] || !slices.Contains(a.cg[i], callee) {
			return nil, false
		}
		s = gl.beforeFrom(callee, gl.withObjectLocks(a.translate(i, callee, s), g), at)
	}
	return slices.Clone(s), true
}
