package mhp

import (
	"maps"
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// spawnCallEvents adds an event at each call of a spawn helper (a function
// whose go statement starts a closure running a function its caller gives
// it: pointsto's spawnClosure, wg.Go(f), errgroup's g.Go(f)) and returns,
// by goroutine, the call events whose calls enter the context that
// goroutine's go statement runs in (pointsto gives each such call a
// context of its own). startsAfter tests these instead of the go
// statement, which is one event for every call: a goroutine of the helper
// starts after x, in x's single goroutine, when none of the calls that
// may start it may have run before x.
//
// Why this holds: every context the helper runs in is entered at a call
// site that gets an event (every call of it is a plain call pointsto sees,
// and it is not an entry), and its go statements run only inside those
// calls. Each go statement is the last thing the helper does (a return
// follows it, and it defers nothing), so an x inside the helper's
// activation, or inside what it calls, comes before the go statement of
// that activation; an x after the call returns has the call's event
// before it.
func (o *Order) spawnCallEvents(r *pointsto.Result) [][]uint32 {
	f := o.f
	helpers := map[uint32]bool{}
	for _, t := range f.Tuples("spawnClosure") {
		if fn := f.Func(t[1]); fn != nil && startsLast(fn) {
			helpers[t[1]] = true
		}
	}
	byCtx := map[[2]uint32][]uint32{} // (helper, context) -> the events of the calls entering it
	evOfCall := map[uint32]uint32{}
	calls := o.plainCallsOf(r, helpers)
	for _, m := range slices.Sorted(maps.Keys(calls)) { // in order: event ids are deterministic
		for _, cl := range calls[m] {
			ev, ok := evOfCall[cl.site]
			if !ok {
				ev = o.addEvent(event{kind: evSpawnCall, instr: f.Call(cl.site), fn: f.Caller(cl.site), id: cl.site})
				evOfCall[cl.site] = ev
			}
			if key := [2]uint32{m, cl.ctx}; !slices.Contains(byCtx[key], ev) {
				byCtx[key] = append(byCtx[key], ev)
			}
		}
	}
	out := make([][]uint32, len(o.gs.List))
	for g, gr := range o.gs.List {
		if gr.Kind == GoGoroutine {
			out[g] = byCtx[[2]uint32{f.Caller(gr.Site), gr.Ctx}]
		}
	}
	return out
}

// startsLast reports whether every go statement of fn is followed at once
// by a return, and fn defers nothing: nothing of fn runs after a go
// statement of it.
func startsLast(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for k, instr := range b.Instrs {
			switch instr.(type) {
			case *ssa.Defer:
				return false
			case *ssa.Go:
				if _, ok := b.Instrs[k+1].(*ssa.Return); !ok {
					return false
				}
			}
		}
	}
	return true
}
