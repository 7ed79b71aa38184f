package mhp

import (
	"go/token"
	"maps"
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// countedSends marks the sends on a buffered channel that complete only
// after every receive from it. The Go memory model: the k-th receive from
// a channel of capacity C is synchronized before the (k+C)-th send on it
// completes. For a channel that exists once (no close, no select on it),
// when every send on it is a plain send in the entry function of one
// single goroutine, and every receive a plain receive that runs at most
// once per execution (in the entry function of single goroutines, not in
// a loop), at most R receives happen, R the number of receive sites. A
// send that is at least the (R+C)-th on every path completes only after R
// receives, so after each receive site ran: the (k+C)-th send, for each
// k <= R, runs at or before it in that goroutine's program order. Such a
// send is an acquire that happens after x as soon as any one receive does
// (afterAll).
func (o *Order) countedSends(r *pointsto.Result) {
	f := o.f
	capacity := map[uint32]int{} // MakeChan site -> constant capacity
	for _, t := range f.Tuples("chanCap") {
		capacity[t[0]] = int(t[1])
	}
	chanEvent := map[uint32]uint32{} // E -> event
	for id, ev := range o.events {
		if ev.kind == evChan {
			chanEvent[ev.id] = uint32(id)
		}
	}
	objs := map[uint32][]pointsto.Ctx{}  // E -> channel objects
	byObj := map[pointsto.Ctx][]uint32{} // channel object -> events
	for t := range o.gs.Tuples("chanObj") {
		objs[t[0]] = append(objs[t[0]], t[1])
		byObj[t[1]] = append(byObj[t[1]], chanEvent[t[0]])
	}
	unique := o.gs.Unique(r)
	for _, ch := range slices.Sorted(maps.Keys(byObj)) {
		c, ok := capacity[r.Contexts.Site(ch)]
		if !ok || c == 0 || !unique.Test(uint(ch)) {
			continue
		}
		sends, receives, ok := o.channelUse(byObj[ch], objs)
		if !ok || len(sends) == 0 {
			continue
		}
		need := receives + c
		count := o.sendsBefore(sends)
		for _, s := range sends {
			if count[s]+1 >= need {
				o.events[s].acquire, o.events[s].afterAll = true, true
			}
		}
	}
}

// channelUse splits the events on one channel into its sends, which must
// all be plain sends on only this channel in the entry function of one
// single goroutine, and the number of its receives, which must be plain
// receives that each run at most once per execution.
func (o *Order) channelUse(evs []uint32, objs map[uint32][]pointsto.Ctx) (sends []uint32, receives int, ok bool) {
	var sender *ssa.Function
	for _, id := range evs {
		ev := &o.events[id]
		switch in := ev.instr.(type) {
		case *ssa.Send:
			fn := in.Parent()
			if len(objs[ev.id]) != 1 || sender != nil && fn != sender || !o.runsOnceIn(fn, nil) {
				return nil, 0, false
			}
			sender = fn
			sends = append(sends, id)
		case *ssa.UnOp:
			if in.Op != token.ARROW || !o.runsOnceIn(in.Parent(), in.Block()) {
				return nil, 0, false
			}
			receives++
		default:
			return nil, 0, false // a close or a select
		}
	}
	if sender != nil && len(o.gs.Of(o.funcIDOf(sender))) != 1 {
		return nil, 0, false
	}
	return sends, receives, true
}

// runsOnceIn reports whether fn only runs as the entry function of single
// goroutines, so once per execution each, and block b (if not nil) runs
// at most once per call of fn.
func (o *Order) runsOnceIn(fn *ssa.Function, b *ssa.BasicBlock) bool {
	threads := o.gs.Of(o.funcIDOf(fn))
	if len(threads) == 0 || b != nil && o.repeats(b) {
		return false
	}
	for _, g := range threads {
		if !o.gs.List[g].Single || o.entryOf(g) != fn {
			return false
		}
	}
	return true
}

// funcIDOf returns the M id of fn.
func (o *Order) funcIDOf(fn *ssa.Function) uint32 {
	m, _ := o.f.FuncID(fn)
	return m
}

// sendsBefore counts, for each send event, the sends among them that run
// before it on every path through their function (a least count over
// paths).
func (o *Order) sendsBefore(sends []uint32) map[uint32]int {
	fn := o.events[sends[0]].instr.Parent()
	isSend := map[ssa.Instruction]uint32{}
	for _, s := range sends {
		isSend[o.events[s].instr] = s
	}
	const unreached = -1
	out := make([]int, len(fn.Blocks))
	for i := range out {
		out[i] = unreached
	}
	limit := len(sends) + 1 // counts beyond the number of sites do not matter
	count := map[uint32]int{}
	// Termination: a block's count starts unreached, then only falls (a
	// minimum over predecessors) and stays within [0, limit], so it changes
	// at most limit+2 times; a round without a change is the last.
	for changed := true; changed; {
		changed = false
		o.work += uint64(len(fn.Blocks))
		for _, b := range fn.Blocks {
			n := unreached
			if b.Index == 0 {
				n = 0
			}
			for _, p := range b.Preds {
				if out[p.Index] != unreached && (n == unreached || out[p.Index] < n) {
					n = out[p.Index]
				}
			}
			if n == unreached {
				continue
			}
			for _, instr := range b.Instrs {
				if s, ok := isSend[instr]; ok {
					count[s] = n
					n = min(n+1, limit)
				}
			}
			if n != out[b.Index] {
				out[b.Index] = n
				changed = true
			}
		}
	}
	return count
}
