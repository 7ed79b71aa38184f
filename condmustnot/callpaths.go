package condmustnot

import (
	"encoding/binary"
	"slices"
)

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
	f := gl.a.f
	if len(chain) == 0 {
		return nil, false
	}
	entry, ok := gl.entryVia(g, chain, f.AccessFunc(e))
	if !ok {
		return nil, false
	}
	return slices.Clone(gl.beforeFrom(f.AccessFunc(e), entry, f.Access(e))), true
}

// entryVia returns the entry lockset of callee, the function chain[0]
// calls, in g when the calls of chain lead to it (ViaCalls), kept per
// goroutine, chain and callee: the chains of one function's accesses
// share their outer calls.
func (gl *GoroutineLocksets) entryVia(g uint32, chain []uint32, callee uint32) (lockset, bool) {
	key := make([]byte, 0, 4*(len(chain)+2))
	key = binary.LittleEndian.AppendUint32(key, g)
	key = binary.LittleEndian.AppendUint32(key, callee)
	for _, i := range chain {
		key = binary.LittleEndian.AppendUint32(key, i)
	}
	if v, ok := gl.via[string(key)]; ok {
		return v.entry, v.ok
	}
	entry, ok := gl.computeEntryVia(g, chain, callee)
	gl.via[string(key)] = viaEntry{entry, ok}
	return entry, ok
}

type viaEntry struct {
	entry lockset
	ok    bool
}

func (gl *GoroutineLocksets) computeEntryVia(g uint32, chain []uint32, callee uint32) (lockset, bool) {
	a := gl.a
	f := a.f
	i := chain[0]
	caller := f.Caller(i)
	if a.goCall[i] || a.defer_[i] || !a.flow[caller] || !a.flow[callee] || !slices.Contains(a.cg[i], callee) {
		return nil, false
	}
	var before lockset
	if len(chain) == 1 {
		before = gl.lockset(caller, g, f.Call(i))
	} else {
		entry, ok := gl.entryVia(g, chain[1:], caller)
		if !ok {
			return nil, false
		}
		before = gl.beforeFrom(caller, entry, f.Call(i))
	}
	return gl.withObjectLocks(a.translate(i, callee, before), g), true
}
