package condmustnot

import (
	"slices"
	"testing"

	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// The locks that must be held at every access on a marked line.
func TestLocksets(t *testing.T) {
	fx := load(t)
	tests := []struct {
		pkg, marker string
		want        []string // lockName of each Held, sorted
	}{
		{"region", "locked", []string{"mu"}},
		{"region", "unlocked", nil},
		{"deferunlock", "held", []string{"mu"}},
		{"deferunlock", "heldclosure", []string{"mu"}},
		{"deferunlock", "afterreturn", nil}, // the callee's deferred Unlock ran
		{"deferunlock", "beforereturn", []string{"mu", "outer"}},
		{"rwmutex", "rread", []string{"rw r"}},
		{"rwmutex", "rwrite", []string{"rw r"}},
		{"rwmutex", "wwrite", []string{"rw"}},
		{"rwmutex", "either", []string{"rw r"}}, // Lock on one path, RLock on the other
		{"trylock", "try", []string{"mu"}},
		{"trylock", "fail", nil},
		{"trylock", "trynot", []string{"mu"}},
		{"unlockhelper", "afterhelper", nil},
		{"unlockhelper", "afternoop", []string{"mu"}},
		{"unlockhelper", "afterlocker", nil},
		{"unlockhelper", "aftercondwait", []string{"mu"}},
		{"callers", "guarded", []string{"mu"}},
		{"callers", "exposed", nil},
		{"loop", "after", []string{"mu"}},
		{"loop", "before", nil}, // the held lock is the previous item's: killed
		{"fine", "incn", []string{"mu"}},
		{"entrylock", "set", []string{"mu"}},
		{"entrylock", "item", []string{"mu", "mu"}}, // set's c.mu, and setItem's c.mu
		{"entrylock", "bump", nil},
		{"entrylock", "walk", []string{"mu"}}, // start's n.mu, not the next node's
		{"medium", "owned", []string{"mu"}},
		{"medium", "prevlock", nil}, // the previous holder's lock: killed when t is loaded again
		{"fine", "decm", []string{"other"}},
		// A send on a channel of capacity 1 is held until a receive.
		{"chanlock", "locked", []string{"mtx"}},
		{"chanlock", "released", nil},
		{"chanlock", "helper", []string{"mtx"}},
		{"chanlock", "afterhelper", nil},
		{"chanlock", "stray", []string{"stray"}}, // held, but not a lock (TestProve)
		{"chanlock", "cap2", nil},
		{"chanlock", "sel", []string{"sel"}}, // the never case's edge is never taken
		{"chanlock", "selready", nil},        // the ready case's edge may be
		{"chanlock", "seltimer", nil},        // the runtime sends on a timer's channel
		{"chanlock", "seltick", nil},         // a channel the points-to lost
		{"chanlock", "viaparam", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.marker, func(t *testing.T) {
			for _, e := range fx.accesses(t, tt.pkg, tt.marker) {
				var got []string
				for _, h := range fx.locks.Access(e) {
					got = append(got, fx.lockName(h))
				}
				slices.Sort(got)
				if !slices.Equal(got, tt.want) {
					t.Errorf("%s: held %q, want %q", fx.facts.AccessDesc(e), got, tt.want)
				}
			}
		})
	}
}

// The deferred Unlock runs at RunDefers: the load of named's result after
// it holds only the caller's lock. The block a recovered panic resumes in
// holds nothing (what the panicking code held is unknown).
func TestLocksetsAfterRunDefers(t *testing.T) {
	fx := load(t)
	var afterDefers, recovered int
	for e := range uint32(fx.facts.Size(pointsto.DomE)) {
		instr := fx.facts.Access(e)
		fn := instr.Parent()
		if fn.String() != "github.com/chordgo/chordgo/testdata/condmustnot/deferunlock.named" {
			continue
		}
		var got []string
		for _, h := range fx.locks.Access(e) {
			got = append(got, fx.lockName(h))
		}
		b := instr.Block()
		switch {
		case b == fn.Recover:
			recovered++
			if len(got) > 0 {
				t.Errorf("%s: held %q after a recovered panic, want none", fx.facts.AccessDesc(e), got)
			}
		case slices.ContainsFunc(b.Instrs[:slices.Index(b.Instrs, instr)], isInstr[*ssa.RunDefers]):
			afterDefers++
			if !slices.Equal(got, []string{"outer"}) {
				t.Errorf("%s: held %q after RunDefers, want [outer]", fx.facts.AccessDesc(e), got)
			}
		}
	}
	if afterDefers != 1 || recovered != 1 {
		t.Errorf("%d loads of the result after RunDefers and %d in the recover block, want 1 each", afterDefers, recovered)
	}
}

func isInstr[T ssa.Instruction](x ssa.Instruction) bool {
	_, ok := x.(T)
	return ok
}

// The locks held at a helper differ by the goroutine that runs it: held
// where every call in the goroutine holds them, not where one does not.
func TestLocksetsByGoroutine(t *testing.T) {
	fx := load(t)
	gs, err := mhp.FindGoroutines(fx.res)
	if err != nil {
		t.Fatal(err)
	}
	starts := map[[2]uint32]bool{}
	entryOf := map[uint32]string{} // goroutine -> the function it starts with
	for tu := range gs.Tuples("threadEntry") {
		starts[[2]uint32{tu[0], tu[2]}] = true
		entryOf[tu[0]] = fx.facts.Func(tu[2]).Name()
	}
	byG := fx.locks.ByGoroutine(gs.Of, func(g, m uint32) bool { return starts[[2]uint32{g, m}] }, nil, nil)
	want := map[string][]string{
		"main$1": {"mu", "mu"}, // only lockedBump calls bump: its &b.mu, and bump's entry lock on b
		"main$2": nil,          // bump called directly
		"main$3": nil,          // mixed calls it both ways
	}
	es := fx.accesses(t, "bygoroutine", "bump")
	seen := map[string]bool{}
	for _, e := range es {
		if got := fx.locks.Access(e); len(got) != 0 {
			t.Errorf("%s: held %v in every goroutine, want none", fx.facts.AccessDesc(e), got)
		}
		for _, g := range gs.Of(fx.facts.AccessFunc(e)) {
			entry := entryOf[g]
			w, ok := want[entry]
			if !ok {
				continue
			}
			seen[entry] = true
			var got []string
			for _, h := range byG.In(e, g) {
				got = append(got, fx.lockName(h))
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s in the goroutine of %s: held %q, want %q", fx.facts.AccessDesc(e), entry, got, w)
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("goroutines seen running bump: %v, want %d", seen, len(want))
	}
}
