package mhp

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// deadGoSites returns the (go site, context) pairs whose go statement never
// runs: in that context the function's parameters are constants that make
// the statement's block unreachable ("if ttl > 0 { go c.janitor() }" in a
// constructor called with ttl 0).
//
// Sound: a plain function runs in a context that begins with its call site
// (pointsto's hybrid contexts), so the calls into (c, m) are a known set,
// the callEdge tuples into it; a parameter is constant in c when every one
// of them is a call of m itself (not a callback registered at it) passing
// the same constant there. With those values, pointsto.LiveBlocks (sparse
// conditional constant propagation) gives the blocks some run of m in c
// may reach; a go statement in no such block starts no goroutine from c.
// A function that is also an entry (a root or init) in c gets no
// constants, and its go sites stay. The other way a go statement never
// runs: every call into (c, m) is from a call site in a block its caller
// never reaches in the caller's context (runIn).
func deadGoSites(r *pointsto.Result, goSite *bitset.BitSet) map[[2]uint32]bool {
	f := r.Facts
	spawners := map[runIn][]uint32{} // (context, function) -> its go sites run there
	for t := range r.Tuples("callEdge") {
		if c, i := t[0], t[1]; goSite.Test(uint(i)) {
			k := runIn{c, f.Caller(i)}
			spawners[k] = append(spawners[k], i)
		}
	}
	if len(spawners) == 0 {
		return nil
	}
	cp := &constParams{r: r, calls: map[runIn][][2]uint32{}, entries: map[runIn]bool{},
		memo: map[depthKey]map[*ssa.Parameter]constant.Value{}, blocks: map[runIn][]bool{}}
	for t := range r.Tuples("entryCtx") {
		cp.entries[runIn{t[0], t[1]}] = true
	}
	for t := range r.Tuples("callEdge") {
		k := runIn{t[2], t[3]}
		cp.calls[k] = append(cp.calls[k], [2]uint32{t[0], t[1]})
	}
	dead := map[[2]uint32]bool{}
	for k, sites := range spawners {
		unreached := !cp.entries[k] && len(cp.calls[k]) > 0
		for _, ci := range cp.calls[k] {
			if cp.runs(runIn{ci[0], f.Caller(ci[1])}, ci[1]) {
				unreached = false
				break
			}
		}
		for _, i := range sites {
			if unreached || !cp.runs(k, i) {
				dead[[2]uint32{i, k.c}] = true
			}
		}
	}
	return dead
}

// runs reports whether call site i of k.m may run where k.m runs in k.c:
// its block is one pointsto.LiveBlocks reaches with the constant
// parameters (all blocks, without constants).
func (cp *constParams) runs(k runIn, i uint32) bool {
	live, ok := cp.blocks[k]
	if !ok {
		if params := cp.in(k, constDepth); len(params) > 0 {
			live = pointsto.LiveBlocks(cp.r.Facts.Func(k.m), params)
		}
		cp.blocks[k] = live
	}
	return live == nil || live[cp.r.Facts.Call(i).Block().Index]
}

// runIn is a function m run in a context c.
type runIn struct{ c, m uint32 }

// depthKey is a runIn asked with a depth: the answer depends on it.
type depthKey struct {
	runIn
	depth int
}

// constDepth bounds how many calls up constParams follows a parameter
// passed on as an argument (a constructor New(d, 0) calling
// newCacheWithJanitor(d, ci, ...)): a bound on the work, not on soundness.
const constDepth = 3

// constParams finds the parameters that are constants in a context.
type constParams struct {
	r       *pointsto.Result
	calls   map[runIn][][2]uint32 // (context, function) -> the (context, call site) of the calls into it
	entries map[runIn]bool        // the roots and inits, in the context each runs in
	memo    map[depthKey]map[*ssa.Parameter]constant.Value
	blocks  map[runIn][]bool // the blocks pointsto.LiveBlocks reaches; nil: all
}

// in returns the parameters of k.m that every call into k passes the same
// constant (an integer, boolean or string; not through a conversion, whose
// value may wrap): a constant argument, or a parameter of the caller that
// is such a constant in the caller's context (up to depth calls up). Each
// call must be a call of k.m itself with its own arguments (not a callback
// registered at it, not through an interface); a function that is also an
// entry in k.c gets none.
func (cp *constParams) in(k runIn, depth int) map[*ssa.Parameter]constant.Value {
	key := depthKey{k, depth}
	if out, ok := cp.memo[key]; ok {
		return out
	}
	f := cp.r.Facts
	fn := f.Func(k.m)
	calls := cp.calls[k]
	if depth == 0 || len(calls) == 0 || fn.Blocks == nil || cp.entries[k] {
		return nil
	}
	out := map[*ssa.Parameter]constant.Value{}
	for z, p := range fn.Params {
		var val constant.Value
		for _, ci := range calls {
			call, ok := f.Call(ci[1]).(ssa.CallInstruction)
			if !ok || call.Common().IsInvoke() || call.Common().StaticCallee() != fn || len(call.Common().Args) != len(fn.Params) {
				return nil
			}
			var x constant.Value
			switch arg := call.Common().Args[z].(type) {
			case *ssa.Const:
				if exactKind(arg) {
					x = arg.Value
				}
			case *ssa.Parameter:
				x = cp.in(runIn{ci[0], f.Caller(ci[1])}, depth-1)[arg]
			}
			if x == nil || val != nil && !constant.Compare(val, token.EQL, x) {
				val = nil
				break
			}
			val = x
		}
		if val != nil {
			out[p] = val
		}
	}
	cp.memo[key] = out
	return out
}

// exactKind reports whether c is a constant whose comparisons constant
// evaluates as Go does at run time: an integer, boolean or string.
func exactKind(c *ssa.Const) bool {
	if c.Value == nil {
		return false
	}
	b, ok := c.Type().Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsBoolean|types.IsString) != 0
}
