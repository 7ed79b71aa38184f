package condmustnot

import (
	"testing"
)

// Which pairs of marked accesses a common lock keeps apart. Each proof rule
// has a case where it applies and cases where it must not.
func TestProve(t *testing.T) {
	fx := load(t)
	tests := []struct {
		pkg, a, b string
		protected bool
	}{
		// Global locks: one object (a global, a mutex allocated once in main).
		{"region", "locked", "locked", true},
		{"region", "locked", "unlocked", false},
		{"deferunlock", "held", "heldclosure", true},
		{"deferunlock", "held", "afterreturn", false},
		{"rwmutex", "rread", "wwrite", true},   // RLock vs Lock
		{"rwmutex", "rwrite", "wwrite", true},  // RLock vs Lock
		{"rwmutex", "rread", "rwrite", false},  // RLock on both sides
		{"rwmutex", "either", "rwrite", false}, // read-held at best vs RLock
		{"trylock", "try", "locked", true},
		{"trylock", "trynot", "locked", true},
		{"trylock", "fail", "locked", false},
		{"unlockhelper", "afternoop", "afternoop", true},
		{"unlockhelper", "afterhelper", "afternoop", false},
		{"unlockhelper", "afterlocker", "afternoop", false},
		{"unlockhelper", "aftercondwait", "afternoop", true},
		{"callers", "guarded", "guarded", true},
		{"callers", "exposed", "exposed", false},
		{"unique", "global", "global", true},
		{"unique", "local", "local", true},
		{"unique", "box", "box", false},       // one abstract object, allocated twice
		{"unique", "either", "either", false}, // two objects
		// Fine-grained locks: the lock is a field of the accessed object.
		{"fine", "incn", "decn", true},
		{"fine", "incn", "incn", true},
		{"fine", "incm", "decm", false}, // two different mutexes
		{"fine", "xfer", "incn", false}, // the lock's base is not the accessed object
		// Fine-grained locks held by every caller of a helper, on the
		// argument the helper receives.
		{"entrylock", "set", "set", true},
		{"entrylock", "bump", "bump", false},   // one caller holds another mutex
		{"entrylock", "store", "store", false}, // give holds the mutex of another cache
		{"entrylock", "walk", "walk", false},   // recursion into the next node, whose mutex is not held
		{"loop", "after", "gox", true},
		{"loop", "before", "gox2", false}, // the held lock is the previous item's
		// Medium-grained locks: the lock is a field of the holder whose
		// field leads to the accessed object, and no two holders' fields
		// ever lead to one object.
		{"medium", "owned", "owned", true},
		{"medium", "ownedmap", "ownedmap", true},
		{"medium", "ownedslice", "ownedslice", true},         // make([]int, 4): a slice of an Alloc
		{"medium", "ownedmakeslice", "ownedmakeslice", true}, // make([]int, n)
		{"medium", "owned", "mu2", false},                    // another mutex of the holder
		{"medium", "owned", "unlocked", false},
		{"medium", "prevlock", "prevlock", false},     // the held lock is the previous holder's
		{"medium", "otherbase", "owned", false},       // the lock of another holder than the one loaded from
		{"medium", "shared", "shared", false},         // one counter stored into two holders
		{"medium", "reassigned", "reassigned", false}, // r2.rc = r1.rc
		{"medium", "looped", "looped", false},         // stored in a loop that does not allocate it anew
		{"medium", "copied", "copied", false},         // *p2 = *p1
		{"medium", "param", "param", false},           // the caller gives one counter to two holders
		{"medium", "given", "given", true},            // allocated by the caller's caller, passed down once per allocation
		{"medium", "givenloop", "givenloop", false},   // one counter passed at each run of a loop
		{"entrylock", "item", "item", true},           // c.items, two calls below the callers' c.mu.Lock
		// Channel-locks: a unique channel of capacity 1, never closed, that
		// every receiver holds.
		{"chanlock", "locked", "locked", true},
		{"chanlock", "helper", "locked", true},
		{"chanlock", "released", "locked", false},
		{"chanlock", "afterhelper", "locked", false},
		{"chanlock", "sel", "sel", true},
		{"chanlock", "viaparam", "viaparam", true}, // bump's receive holds the very channel
		{"chanlock", "stray", "stray", false},      // drain receives without having sent
		{"chanlock", "cap2", "cap2", false},
		{"chanlock", "closer", "closer", false},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.a+"-"+tt.b, func(t *testing.T) {
			var pairs [][2]uint32
			for _, e1 := range fx.accesses(t, tt.pkg, tt.a) {
				for _, e2 := range fx.accesses(t, tt.pkg, tt.b) {
					pairs = append(pairs, [2]uint32{e1, e2})
				}
			}
			protected, err := Prove(fx.locks, fx.unique, pairs)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pairs {
				if protected[p] != tt.protected {
					t.Errorf("protected(%s, %s) = %v, want %v", fx.facts.AccessDesc(p[0]), fx.facts.AccessDesc(p[1]), protected[p], tt.protected)
				}
			}
			if len(protected) > len(pairs) {
				t.Errorf("%d protected pairs, only %d asked", len(protected), len(pairs))
			}
		})
	}
}
