package racefree

import (
	"go/token"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/chordgo/chordgo/pointsto"
)

// RedCard's span redundancy (the digest's C1, section 2.7): a check of
// access e2 of goroutine t to location l is redundant when, on every path
// to e2 in t, an earlier access e1 of t to l was checked with a kind at
// least as strong (a write covers a read or a write, a read covers a
// read) and no release of t lies between e1 and e2.
//
// Why Go's race detector loses no race by it. ThreadSanitizer keeps, per
// 8-byte cell, up to four shadow words (goroutine, epoch, bytes, read or
// write), and a goroutine's epoch moves on only at its releases (acquires
// join the other's clock and leave the epoch). e1 and e2 are in one epoch:
// e1's check stored the word e2's would store (the same address and type,
// so the same bytes; a kind at least as strong), and the detector itself
// skips e2's check when that word is still there (ContainsSameAccess,
// before e2 is even traced). An access e3 of another goroutine that races
// with e2 races with e1: it conflicts with e1 (a write if e2 is a read, and
// e1 is a write when e2 is), e3 cannot happen before e1 (it would happen
// before e2), and e1 cannot happen before e3 without a release of t after
// e1, which comes after e2 and would order e2 before e3. So the detector
// reports e3 against e1, at e1's check (e3 came first) or at e3's (e1's
// word is in the cell). The same race is then reported with e1's position
// where, without the rule, it might have been reported with e2's: the
// pairs printed may differ, not the races of the trace (RedCard's Theorem
// 1); TestNoRaceLost counts a pair found again at a covering access.
//
// It fails when
//   - a release lies between e1 and e2 on some path (a race of e2 with an
//     access after the release is not a race of e1): every instruction
//     that may release ends the span (endsSpan);
//   - e1's check is removed too: if e1 is itself redundant, its cover is
//     earlier in the same span, and if e1 goes through an accessor or a
//     marked function because chordgo proved it race-free, e2 is
//     race-free too (no e3 can race with e2 without racing with e1), so
//     chains of covers end in a checked access or a race-free one (the
//     digest's section 6: C1 and C4 compose);
//   - e1 and e2 are not the same bytes: only the same address computation
//     counts, the same pointer value (an SSA value, computed once per
//     execution of its instruction) with the same fields and the same
//     index values, in the same execution of one function; a value
//     defined again (in a loop, at a phi) is a new value, and the
//     locations through it are forgotten where it is defined. A load of a
//     pointer from memory makes a new value, so no location is taken to be
//     the same through memory that a racy write may change (RedCard's
//     race-free-prefix assumption is not needed);
//   - e1's word was evicted from the cell's four before e3 (by accesses
//     of other goroutines to the cell): then the detector may miss e3
//     against e1 while e2's check would have stored its word again. Each evicting
//     access is itself concurrent with e1 (nothing orders e1 before it
//     without a release), so a conflicting one is reported itself; the
//     detector is incomplete under eviction without the rule too (the
//     digest's pitfall 9).
//
// The compiler instruments e1 whenever it instruments e2: whether an
// access is checked depends on its address (stack slots, read-only data
// are not checked), and e1 has e2's address.

// A kind is how strongly a location was accessed in a span.
type kind uint8

const (
	notAccessed kind = iota
	readAccess
	writeAccess
)

// spanCover gives, for each load and store of a function whose check span
// redundancy removes, the loads and stores of the same location in the
// function that are not removed and have a path to it: the checked
// accesses one of which covers it on each path (their positions are where
// the race detector reports its races).
type spanCover map[ssa.Instruction][]ssa.Instruction

// quietBuiltins are the built-in functions that do not synchronize: they
// compute, or read and write memory (append, copy, delete and clear are
// checked in the runtime) without a release.
var quietBuiltins = map[string]bool{
	"len": true, "cap": true, "append": true, "copy": true, "min": true, "max": true,
	"complex": true, "real": true, "imag": true, "delete": true, "clear": true, "ssa:wrapnilchk": true,
}

// endsSpan says whether instr may be a release of its goroutine in the
// race detector's model (the digest's section 7.2), conservatively:
//   - every call but a quiet built-in: a callee may unlock, send, close,
//     call Done, store atomically, write to a file (syscall.Write
//     releases), start a goroutine or call a function value that does, and
//     chordgo does not summarize callees here; a call to Lock, an acquire
//     only, ends the span too (harmless: it only keeps checks);
//   - go statements: the new goroutine starts from the parent's clock;
//   - defer statements and the deferred calls they run (RunDefers), panics
//     (deferred calls run);
//   - sends, receives and selects: a channel operation releases on the
//     channel (a receive on a buffered channel releases too);
//   - close and the other built-ins not in quietBuiltins (print, recover).
func endsSpan(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.Call:
		b, ok := in.Call.Value.(*ssa.Builtin)
		return !ok || !quietBuiltins[b.Name()]
	case *ssa.Go, *ssa.Defer, *ssa.RunDefers, *ssa.Panic, *ssa.Send, *ssa.Select:
		return true
	case *ssa.UnOp:
		return in.Op == token.ARROW
	}
	return false
}

// locations numbers the locations of a function's loads and stores.
type locations struct {
	ids      map[string]int
	values   map[ssa.Value]int   // the leaves of the addresses, numbered for the keys
	mentions map[ssa.Value][]int // the locations whose address uses the value
}

// key returns a string that is the same for two addresses exactly when
// both are computed the same way from the same values: fields and
// indexes over the same leaf value (a pointer or slice value, an index
// value; constants by their value). It adds the leaves to leaves.
func (l *locations) key(v ssa.Value, leaves *[]ssa.Value) string {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return l.key(v.X, leaves) + "." + strconv.Itoa(v.Field)
	case *ssa.IndexAddr:
		return l.key(v.X, leaves) + "[" + l.key(v.Index, leaves) + "]"
	case *ssa.Const:
		return "c(" + v.String() + ")"
	}
	n, ok := l.values[v]
	if !ok {
		n = len(l.values)
		l.values[v] = n
	}
	*leaves = append(*leaves, v)
	return "v" + strconv.Itoa(n)
}

// spanRedundant computes the loads and stores of fn that span redundancy
// removes: a forward must-analysis over fn's blocks of the locations
// accessed in the current span with their strongest kind, met by taking,
// per location, the weaker kind of the predecessors' (a location accessed
// on one path only is not available). The span ends at each instruction
// endsSpan says may release, and a location is forgotten where a value of
// its address is defined (again).
func spanRedundant(fn *ssa.Function) spanCover {
	l := locations{ids: map[string]int{}, values: map[ssa.Value]int{}, mentions: map[ssa.Value][]int{}}
	locOf := map[ssa.Instruction]int{}
	uses := map[int]int{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			addr := pointsto.LoadStoreAddr(instr)
			if addr == nil {
				continue
			}
			var leaves []ssa.Value
			k := l.key(addr, &leaves)
			id, ok := l.ids[k]
			if !ok {
				id = len(l.ids)
				l.ids[k] = id
				for _, v := range leaves {
					l.mentions[v] = append(l.mentions[v], id)
				}
			}
			locOf[instr] = id
			uses[id]++
		}
	}
	if len(uses) == len(locOf) {
		return nil // no location accessed twice
	}
	// in[b] is nil until a path reaches b.
	in := make([][]kind, len(fn.Blocks))
	for _, b := range fn.Blocks {
		if len(b.Preds) == 0 {
			in[b.Index] = make([]kind, len(l.ids))
		}
	}
	covered := map[ssa.Instruction]bool{}
	transfer := func(b *ssa.BasicBlock, state []kind, record bool) {
		for _, instr := range b.Instrs {
			if endsSpan(instr) {
				clear(state)
			}
			if v, ok := instr.(ssa.Value); ok {
				for _, id := range l.mentions[v] {
					state[id] = notAccessed
				}
			}
			id, ok := locOf[instr]
			if !ok {
				continue
			}
			k := readAccess
			if _, store := instr.(*ssa.Store); store {
				k = writeAccess
			}
			if record && state[id] >= k {
				covered[instr] = true
			}
			state[id] = max(state[id], k)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			if in[b.Index] == nil {
				continue
			}
			out := append([]kind(nil), in[b.Index]...)
			transfer(b, out, false)
			for _, s := range b.Succs {
				if in[s.Index] == nil {
					in[s.Index], changed = append([]kind(nil), out...), true
					continue
				}
				for id, k := range out {
					if k < in[s.Index][id] {
						in[s.Index][id], changed = k, true
					}
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		if in[b.Index] != nil {
			transfer(b, append([]kind(nil), in[b.Index]...), true)
		}
	}
	if len(covered) == 0 {
		return nil
	}
	roots := map[int][]ssa.Instruction{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if id, ok := locOf[instr]; ok && !covered[instr] {
				roots[id] = append(roots[id], instr)
			}
		}
	}
	out := spanCover{}
	reach := map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}
	for instr := range covered {
		for _, r := range roots[locOf[instr]] {
			if precedes(r, instr, reach) {
				out[instr] = append(out[instr], r)
			}
		}
	}
	return out
}

// precedes says whether a path leads from a to b, where reach memoizes
// the blocks reachable from a block's successors.
func precedes(a, b ssa.Instruction, reach map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb && slices.Index(ab.Instrs, a) < slices.Index(ab.Instrs, b) {
		return true
	}
	if reach[ab] == nil {
		seen := map[*ssa.BasicBlock]bool{}
		stack := slices.Clone(ab.Succs)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen[x] {
				seen[x] = true
				stack = append(stack, x.Succs...)
			}
		}
		reach[ab] = seen
	}
	return reach[ab][bb]
}
