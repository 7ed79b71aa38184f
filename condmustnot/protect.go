package condmustnot

import (
	_ "embed"
	"go/types"
	"slices"

	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

//go:embed condmustnot.dl
var rulesSource string

var parseRules = datalog.Embedded("condmustnot.dl", rulesSource)

// Lock modes in heldAt.
const (
	modeWrite = 0 // Lock, TryLock
	modeRead  = 1 // RLock, TryRLock
)

// Prove returns the pairs of accesses (E ids) that a common lock keeps
// apart, by the rules of condmustnot.dl: both hold one lock that is a
// single object (unique gives the objects, pointsto.Ctx ids of l's points-to,
// that exist at most once in an execution), both hold the lock at the
// same field of the object they access, or both hold the lock at the same
// field of the object whose field f led them to the accessed object, and
// no two objects' fields f ever lead to one object; in each case at least
// one holds it exclusively. A single channel of capacity 1 is a lock too if
// every receive from it is made while holding it (condmustnot.dl's
// chanLock). A pair not in the result may still be protected.
func Prove(l *Locksets, unique func(o pointsto.Ctx) bool, pairs [][2]uint32) (map[[2]uint32]bool, error) {
	index := map[uint32]uint32{}
	var insts []Instance
	id := func(e uint32) uint32 {
		x, ok := index[e]
		if !ok {
			x = uint32(len(insts))
			index[e] = x
			insts = append(insts, Instance{E: e, Held: l.access[e]})
		}
		return x
	}
	ipairs := make([][2]uint32, len(pairs))
	for k, p := range pairs {
		ipairs[k] = [2]uint32{id(p[0]), id(p[1])}
	}
	protected, err := l.ProveInstances(insts, unique, ipairs)
	if err != nil {
		return nil, err
	}
	out := map[[2]uint32]bool{}
	for k, p := range pairs {
		if protected[ipairs[k]] {
			out[p] = true
		}
	}
	return out, nil
}

// An Instance is an access with the locks that must be held at it: where
// any goroutine runs it (Locksets.Access), or where one does
// (Locksets.In).
type Instance struct {
	E    uint32
	Held []Held
	// In gives the contexts, sorted, in which the instance's goroutine
	// may run function m; nil: any context. A lock's objects are then
	// those its pointer may be in the contexts where the goroutine runs
	// the pointer's function (heldObjs).
	In func(m uint32) []pointsto.Ctx
}

// ProveInstances is Prove for pairs of instances (indices into insts):
// the proofs read each instance's own Held.
func (l *Locksets) ProveInstances(insts []Instance, unique func(o pointsto.Ctx) bool, pairs [][2]uint32) (map[[2]uint32]bool, error) {
	prog, err := parseRules()
	if err != nil {
		return nil, err
	}
	db := datalog.NewDatabase(prog)
	var xs []uint32
	for _, p := range pairs {
		if err := db.Add("pair", p[0], p[1]); err != nil {
			return nil, err
		}
		xs = append(xs, p[0], p[1])
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)

	// The channels that may be locks, the receives from them and their
	// locksets, which decide whether they are. A receive is an instance
	// of its own, with the locks held wherever it runs.
	held := slices.Clone(xs)
	for _, o := range l.chans.objs {
		if err := db.Add("lockChan", o); err != nil {
			return nil, err
		}
		if unique(o) {
			if err := db.Add("unique", o); err != nil {
				return nil, err
			}
		}
	}
	for _, o := range l.chans.closed {
		if err := db.Add("closed", o); err != nil {
			return nil, err
		}
	}
	insts = slices.Clip(insts)
	for _, r := range l.chans.recvs {
		x := uint32(len(insts))
		insts = append(insts, Instance{E: r[0], Held: l.access[r[0]]})
		held = append(held, x)
		for _, o := range l.objs[r[1]] {
			if _, ok := slices.BinarySearch(l.chans.objs, o); ok {
				if err := db.Add("recvCase", x, r[1], o); err != nil {
					return nil, err
				}
			}
		}
	}
	var locks []uint32
	for _, x := range held {
		for _, h := range insts[x].Held {
			mode := uint32(modeWrite)
			if h.Read {
				mode = modeRead
			}
			if err := db.Add("heldAt", x, h.Ptr, mode); err != nil {
				return nil, err
			}
			locks = append(locks, h.Ptr)
			for _, o := range l.flow.heldObjs(h.Ptr, insts[x].In) {
				if err := db.Add("heldObj", x, h.Ptr, o); err != nil {
					return nil, err
				}
				if unique(o) {
					if err := db.Add("unique", o); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	slices.Sort(locks)
	for _, v := range slices.Compact(locks) {
		if v >= l.flow.nV {
			// An entry lock: a mutex's address, never a channel.
		} else if _, ok := l.facts.Value(v).Type().Underlying().(*types.Chan); ok {
			if err := db.Add("chanHeld", v); err != nil {
				return nil, err
			}
		}
		for _, o := range l.objs[v] {
			if err := db.Add("lockObj", v, o); err != nil {
				return nil, err
			}
			if unique(o) {
				if err := db.Add("unique", o); err != nil {
					return nil, err
				}
			}
		}
	}
	ptrs := l.accessPtrs(insts, xs)
	for _, t := range l.fine(insts, xs, ptrs) {
		if err := db.Add("fine", t[0], t[1], t[2]); err != nil {
			return nil, err
		}
	}
	for rel, tuples := range l.medium(insts, xs, ptrs) {
		for _, t := range tuples {
			if err := db.Add(rel, t...); err != nil {
				return nil, err
			}
		}
	}

	if _, err := db.Run(); err != nil {
		return nil, err
	}
	if l.res.Record != nil {
		l.res.Record(db)
	}
	protected := map[[2]uint32]bool{}
	for t := range db.Tuples("protected") {
		protected[[2]uint32{t[0], t[1]}] = true
	}
	return protected, nil
}

// accessPtrs returns the pointers each access of instances xs reads or
// writes through, by E.
func (l *Locksets) accessPtrs(insts []Instance, xs []uint32) map[uint32][]uint32 {
	want := map[uint32]bool{}
	for _, x := range xs {
		want[insts[x].E] = true
	}
	ptrs := map[uint32][]uint32{}
	for _, rel := range []string{"read", "write", "mapRead", "mapWrite"} {
		for _, t := range l.facts.Tuples(rel) {
			if e := t[0]; want[e] && !slices.Contains(ptrs[e], t[1]) {
				ptrs[e] = append(ptrs[e], t[1])
			}
		}
	}
	return ptrs
}

// fine returns the fine(x, v, g) tuples of instances xs: x accesses one
// location, through a FieldAddr &b.f, and holds a lock v = &b.g on the same
// SSA value b (taken in e's function, or an entry lock on the parameter
// b). An access through two pointers is left out: the proof must know
// which location the race would be on. (An IndexAddr base is an array or
// slice, never the base of a lock's FieldAddr, so element accesses have no
// fine tuple.)
func (l *Locksets) fine(insts []Instance, xs []uint32, ptrs map[uint32][]uint32) [][3]uint32 {
	f := l.facts
	var out [][3]uint32
	for _, x := range xs {
		e := insts[x].E
		if len(ptrs[e]) != 1 {
			continue
		}
		access, ok := tupleOf(f, "fieldAddr", ptrs[e][0])
		if !ok {
			continue
		}
		if _, ok := f.Value(ptrs[e][0]).(*ssa.FieldAddr); !ok {
			continue
		}
		for _, h := range insts[x].Held {
			if base, g, ok := lockAddr(f, l.flow.nV, l.flow.entryLocks, h.Ptr); ok && base == access[1] {
				out = append(out, [3]uint32{x, h.Ptr, g})
			}
		}
	}
	return out
}
