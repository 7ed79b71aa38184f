package condmustnot

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// Held is a lock that must be held at a program point: a mutex locked and
// not unlocked since, or a channel of capacity 1 sent on and not received
// from since (a channel-lock: whether the channel acts as a lock is for
// Prove to decide).
type Held struct {
	Ptr  uint32 // V id of the lock's address (*sync.Mutex or *sync.RWMutex) at the Lock/RLock/TryLock call, or of the channel at the send; or an entry lock's id
	Read bool   // held by RLock/TryRLock (shared), not Lock
}

// entryLock is a lock that every call of a function passes in held at
// &x.g, x the argument the function receives as its parameter base: in
// the callee it is held at &base.g. Its Held's Ptr is an id past the V
// domain (the nV-th entry lock has id nV+n), so that a lock held by
// callers through their own values (Add and Replace each lock c.mu, then
// call c.set) survives the meet at the callee's entry.
type entryLock struct{ base, field uint32 } // V of a parameter, F

// Locksets holds the locks that must be held at each access.
type Locksets struct {
	facts  *pointsto.Facts
	res    *pointsto.Result          // the points-to the locksets were computed from
	access map[uint32][]Held         // by E, the accesses where some lock is held
	objs   map[uint32][]pointsto.Ctx // lock, unlock, send and receive pointers, and entry locks -> the objects they may be, sorted
	chans  chanLocks
	flow   *analysis // the dataflow's state: entry locks, and the locksets per goroutine
}

// chanLocks is what Prove needs to decide which channels act as locks.
type chanLocks struct {
	objs   []pointsto.Ctx // channels made with constant capacity 1 that a send adds as a Held, sorted
	recvs  [][2]uint32    // (e, v): channel operation e receives (or has a receive case) through v, and v may point to one of objs
	closed []pointsto.Ctx // the objs some close may close
}

// Access returns the locks that must be held at access e, sorted by Ptr.
func (l *Locksets) Access(e uint32) []Held { return slices.Clone(l.access[e]) }

// lockset is a must-held set: sorted by Ptr, at most one Held per Ptr.
type lockset []Held

// meet is the intersection of a and b. A lock held for writing on one side
// and for reading on the other is at least read-held.
func meet(a, b lockset) lockset {
	var out lockset
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].Ptr < b[j].Ptr:
			i++
		case a[i].Ptr > b[j].Ptr:
			j++
		default:
			out = append(out, Held{a[i].Ptr, a[i].Read || b[j].Read})
			i, j = i+1, j+1
		}
	}
	return out
}

// gen adds h, replacing a Held of the same Ptr.
func (s lockset) gen(h Held) lockset {
	i, found := slices.BinarySearchFunc(s, h.Ptr, func(x Held, p uint32) int { return cmp.Compare(x.Ptr, p) })
	if found {
		s[i] = h
		return s
	}
	return slices.Insert(s, i, h)
}

// tryLock is a TryLock/TryRLock call whose lock is held on the true edge of
// an If on its result, in the call's block. A result that reaches the If
// through a Phi or another instruction (ok == true, a variable assigned on
// several paths) adds nothing.
type tryLock struct {
	call ssa.Value
	held Held
}

// state is the dataflow value inside a block: the must-held set and the
// TryLock calls of the block whose lock has not been released since.
type state struct {
	held  lockset
	tries []tryLock
}

func (s *state) kill(dead func(Held) bool) {
	s.held = slices.DeleteFunc(s.held, dead)
	s.tries = slices.DeleteFunc(s.tries, func(t tryLock) bool { return dead(t.held) })
}

// analysis is the state of Compute.
type analysis struct {
	f       *pointsto.Facts
	cg      map[uint32][]uint32
	flow    []bool // by M: the dataflow runs on its body
	calls   map[ssa.Instruction][]uint32
	lockOps map[uint32]lockOp // by I
	goCall  []bool            // by I: go sites and the runtime's callbacks
	defer_  []bool            // by I
	recv    map[uint32]uint32 // I -> its argument 0 (receiver), where a sync unlock method may be called
	callsOf [][]uint32        // by M: its call sites

	chanCases map[uint32][]chanCase // by E: the cases of each channel operation
	chanVal   map[ssa.Value]uint32  // channel operands of channel operations -> their V ids
	recvsOf   [][]uint32            // by M: the channels its receives (and select receive cases) take from
	locksChan []bool                // by M: it sends on a channel a Held stands for
	lockChans map[pointsto.Ctx]bool // channels made with constant capacity 1 that a send adds as a Held
	sent      map[pointsto.Ctx]bool // channels some send or close may operate on
	closed    map[pointsto.Ctx]bool // channels some close may close
	contexts  *pointsto.Contexts

	objs     map[uint32][]pointsto.Ctx
	lockBit  map[pointsto.Ctx]uint     // the objects Lock/RLock/TryLock may hold, numbered
	bits     map[uint32]*bitset.BitSet // unlock pointer -> the lockable objects it may release
	heldBits map[uint32]*bitset.BitSet // gen pointer -> its lockable objects
	defKills map[ssa.Value][]uint32    // defining a value invalidates the Held of these Ptrs
	all      *bitset.BitSet            // every lockable object: an unlock of unknown objects
	allChans *bitset.BitSet            // the lockable objects added by sends: a receive of unknown objects
	unlocks  []*bitset.BitSet          // by M: what a call of m may release (nil: nothing)
	acquires []lockset                 // by M: what m holds on every return, from an empty entry
	lastOut  lockset                   // the lockset at the end of the last block run

	entry []lockset // by M

	nV            uint32
	formals       []map[uint32]uint32          // by M: parameter index -> V, for the functions the dataflow runs on
	actuals       map[uint32][][2]uint32       // by I: (parameter index, V) of each argument
	paramObjs     map[uint32][]pointsto.Ctx    // parameters an entry lock may be based on -> their objects
	ctxObjs       map[uint32][][2]pointsto.Ctx // lock pointers and those parameters -> (context, object) of their points-to
	subObjs       map[[2]uint32]pointsto.Ctx   // (object, field of a lock) -> the field's sub-object
	entryLocks    []entryLock                  // by id - nV
	objectLocks   []uint32                     // by id - objectLockBase: the Ptr of the Held it was made from
	objectLockIDs map[pointsto.Ctx]uint32      // object -> its object lock's id
	entryIDs      map[entryLock]uint32         // its id, or pointsto.NoID when no lockable object can be it
	entryKnown    []bool
	queue         []uint32
	queued        []bool
	held          map[uint32][]Held // by E, where some lock is held: most accesses have none
}

type lockOp struct {
	ptr uint32
	z   uint32
}

// chanCase is one case of a channel operation: a send, receive or close
// (pointsto.Chan*) through the channel value ch. A select has one per case.
type chanCase struct {
	ch uint32
	z  uint32
}

// Compute runs the must-held lockset dataflow (see the package doc) over
// every analyzed function of r's program. The call graph (r.CallGraph)
// gives the callees of each call site; the points-to (pt, in any context)
// tells which held locks an unlock may release.
func Compute(f *pointsto.Facts, r *pointsto.Result) *Locksets {
	a := &analysis{
		f:        f,
		cg:       r.CallGraph(),
		calls:    map[ssa.Instruction][]uint32{},
		lockOps:  map[uint32]lockOp{},
		recv:     map[uint32]uint32{},
		chanVal:  map[ssa.Value]uint32{},
		objs:     map[uint32][]pointsto.Ctx{},
		lockBit:  map[pointsto.Ctx]uint{},
		bits:     map[uint32]*bitset.BitSet{},
		heldBits: map[uint32]*bitset.BitSet{},
		defKills: map[ssa.Value][]uint32{},
		held:     map[uint32][]Held{},
		contexts: r.Contexts,
		nV:       uint32(f.Size(pointsto.DomV)),
		entryIDs: map[entryLock]uint32{},

		objectLockIDs: map[pointsto.Ctx]uint32{},
	}
	a.index()
	a.pointsTo(r)
	a.summarize()
	a.summarizeAcquires()
	a.solve()
	return &Locksets{facts: f, res: r, access: a.held, objs: a.objs, chans: a.chanLocks(), flow: a}
}

// runsFlow reports whether the dataflow runs on m's body: not for the
// synchronization primitives and the runtime, whose lock effects are
// modeled at their call sites.
func runsFlow(f *pointsto.Facts, m uint32) bool {
	fn := f.Func(m)
	if !f.Analyzed(m) || fn.Blocks == nil {
		return false
	}
	if origin := fn.Origin(); origin != nil {
		fn = origin // an instance of a generic function: its package is the origin's
	}
	if fn.Pkg == nil {
		return true
	}
	switch path := fn.Pkg.Pkg.Path(); path {
	case "sync", "sync/atomic", "internal/sync", "runtime":
		return false
	default:
		return !strings.HasPrefix(path, "internal/runtime/")
	}
}

// syncMethod reports whether fn is method name of *sync.typ.
func syncMethod(fn *ssa.Function, typ string, names ...string) bool {
	recv := fn.Signature.Recv()
	if recv == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" || !slices.Contains(names, fn.Name()) {
		return false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	return ok && named.Obj().Name() == typ
}

// isUnlockMethod reports whether fn releases its receiver: a call of it
// that is not a lockOp site (through sync.Locker or a method expression)
// releases its argument 0.
func isUnlockMethod(fn *ssa.Function) bool {
	return syncMethod(fn, "Mutex", "Unlock") || syncMethod(fn, "RWMutex", "Unlock", "RUnlock")
}

// index maps instructions to their call sites, and reads the
// lock operations.
func (a *analysis) index() {
	f := a.f
	nM, nI := f.Size(pointsto.DomM), f.Size(pointsto.DomI)
	a.flow = make([]bool, nM)
	for m := range nM {
		a.flow[m] = runsFlow(f, uint32(m))
	}
	a.goCall, a.defer_ = make([]bool, nI), make([]bool, nI)
	for _, t := range f.Tuples("goCall") {
		a.goCall[t[0]] = true
	}
	for _, t := range f.Tuples("deferCall") {
		a.defer_[t[0]] = true
	}
	a.callsOf = make([][]uint32, nM)
	for _, t := range f.Tuples("callSite") {
		i, m := t[0], t[1]
		a.callsOf[m] = append(a.callsOf[m], i)
		if a.flow[m] {
			a.calls[f.Call(i)] = append(a.calls[f.Call(i)], i)
		}
	}
	for _, t := range f.Tuples("lockOp") {
		a.lockOps[t[0]] = lockOp{ptr: t[1], z: t[2]}
	}
	a.sameLockAddr()
	a.chanCases = map[uint32][]chanCase{}
	a.recvsOf = make([][]uint32, nM)
	for _, t := range f.Tuples("chanOp") {
		e, ch, z := t[0], t[1], t[2]
		a.chanCases[e] = append(a.chanCases[e], chanCase{ch: ch, z: z})
		a.chanVal[f.Value(ch)] = ch
		if z == pointsto.ChanRecv {
			m := f.AccessFunc(e)
			a.recvsOf[m] = append(a.recvsOf[m], ch)
		}
	}
	a.actuals = map[uint32][][2]uint32{}
	for _, t := range f.Tuples("actual") {
		i, z := t[0], t[1]
		a.actuals[i] = append(a.actuals[i], [2]uint32{z, t[2]})
		if z == 0 && slices.ContainsFunc(a.cg[i], func(m uint32) bool { return isUnlockMethod(f.Func(m)) }) {
			a.recv[i] = t[2]
		}
	}
	a.formals = make([]map[uint32]uint32, nM)
	for _, t := range f.Tuples("formal") {
		if m := t[0]; a.flow[m] {
			if a.formals[m] == nil {
				a.formals[m] = map[uint32]uint32{}
			}
			a.formals[m][t[1]] = t[2]
		}
	}
}

// sameLockAddr gives the Lock, RLock, TryLock and TryRLock calls that take
// a mutex at &x.g, for one SSA value x and field g, one pointer: the least
// V id among their FieldAddrs. Each FieldAddr instruction is a value of
// its own, so without this "c.mu.Lock(); if d > 0 { c.mu.Unlock();
// sleep(d); c.mu.Lock() }" would hold c.mu on each branch under another V
// id and on neither after the meet. Sound: x is an SSA value, defined
// once per activation and never assigned, so every FieldAddr &x.g of the
// current x is one address; a Held keyed on any of them is dropped when x
// is defined again (defKills), as before.
func (a *analysis) sameLockAddr() {
	least := map[[2]uint32]uint32{} // (x, g) -> the least V id of a FieldAddr &x.g that a lock takes
	canon := func(op lockOp) ([2]uint32, bool) {
		if _, ok := a.f.Value(op.ptr).(*ssa.FieldAddr); !ok {
			return [2]uint32{}, false
		}
		t, ok := tupleOf(a.f, "fieldAddr", op.ptr)
		return [2]uint32{t[1], t[2]}, ok
	}
	for i, op := range a.lockOps {
		if k, ok := canon(op); ok && a.isGen(i, op) {
			if v, seen := least[k]; !seen || op.ptr < v {
				least[k] = op.ptr
			}
		}
	}
	for i, op := range a.lockOps {
		if k, ok := canon(op); ok && a.isGen(i, op) {
			a.lockOps[i] = lockOp{ptr: least[k], z: op.z}
		}
	}
}

// isGen reports whether the lock operation at call site i may add a Held:
// Lock, RLock, TryLock or TryRLock called (not deferred, not spawned) in a
// function the dataflow runs on.
func (a *analysis) isGen(i uint32, op lockOp) bool {
	if a.goCall[i] || a.defer_[i] || !a.flow[a.f.Caller(i)] {
		return false
	}
	return op.z == pointsto.LockLock || op.z == pointsto.LockRLock || op.z == pointsto.LockTryLock || op.z == pointsto.LockTryRLock
}

func isUnlock(op lockOp) bool { return op.z == pointsto.LockUnlock || op.z == pointsto.LockRUnlock }

// pointsTo collects the objects of lock, unlock and channel pointers (in
// any context), numbers the objects a Held may stand for, and gives each
// pointer its set of them. A lock pointer that points to nothing adds no
// Held (its code is unreachable for the analysis); an unlock pointer that
// points to nothing releases every lock, and a receive through one every
// channel-lock.
func (a *analysis) pointsTo(r *pointsto.Result) {
	wanted := bitset.New(uint(a.f.Size(pointsto.DomV)))
	for i, op := range a.lockOps {
		if a.isGen(i, op) || isUnlock(op) {
			wanted.Set(uint(op.ptr))
		}
	}
	for _, v := range a.recv {
		wanted.Set(uint(v))
	}
	for _, v := range a.chanVal {
		wanted.Set(uint(v))
	}
	params, lockFields := a.entryLockBases()
	a.paramObjs = map[uint32][]pointsto.Ctx{}
	paramObjs := bitset.New(uint(r.Contexts.Len()))
	a.ctxObjs = map[uint32][][2]pointsto.Ctx{}
	for t := range r.Tuples("pt") {
		c, v, o := t[0], t[1], t[2]
		if wanted.Test(uint(v)) {
			a.objs[v] = append(a.objs[v], o)
		}
		if params.Test(uint(v)) {
			a.paramObjs[v] = append(a.paramObjs[v], o)
			paramObjs.Set(uint(o))
		}
		if wanted.Test(uint(v)) || params.Test(uint(v)) {
			a.ctxObjs[v] = append(a.ctxObjs[v], [2]pointsto.Ctx{c, o})
		}
	}
	a.subObjs = map[[2]uint32]pointsto.Ctx{}
	for t := range r.Tuples("subObj") {
		if o, g := t[0], t[1]; lockFields[g] && paramObjs.Test(uint(o)) {
			a.subObjs[[2]uint32{o, g}] = t[2]
		}
	}
	for v, objs := range a.objs {
		slices.Sort(objs)
		a.objs[v] = slices.Compact(objs)
	}
	a.findLockChans()

	var lockable, chans []pointsto.Ctx
	for i, op := range a.lockOps {
		if a.isGen(i, op) {
			lockable = append(lockable, a.objs[op.ptr]...)
		}
	}
	lockSends := map[uint32]bool{} // the channels of sends that add a Held
	a.locksChan = make([]bool, a.f.Size(pointsto.DomM))
	for e, cases := range a.chanCases {
		m := a.f.AccessFunc(e)
		for _, c := range cases {
			if c.z == pointsto.ChanSend && a.flow[m] && slices.ContainsFunc(a.objs[c.ch], a.isLockChan) {
				lockSends[c.ch], a.locksChan[m] = true, true
				chans = append(chans, a.objs[c.ch]...)
			}
		}
	}
	lockable = append(lockable, chans...)
	slices.Sort(lockable)
	lockable = slices.Compact(lockable)
	for k, o := range lockable {
		a.lockBit[o] = uint(k)
	}
	a.all = bitset.New(uint(len(lockable))).Complement()
	toBits := func(v uint32) *bitset.BitSet { return a.lockBits(a.objs[v]) }
	addHeld := func(v uint32) {
		a.heldBits[v] = toBits(v)
		fn := a.f.Value(v)
		a.defKills[fn] = append(a.defKills[fn], v)
		if fa, ok := fn.(*ssa.FieldAddr); ok {
			// The fine- and medium-grained proofs relate the lock to its base:
			// a new base value makes the Held stale too.
			a.defKills[fa.X] = append(a.defKills[fa.X], v)
		}
	}
	for i, op := range a.lockOps {
		switch {
		case a.isGen(i, op) && len(a.objs[op.ptr]) > 0:
			addHeld(op.ptr)
		case isUnlock(op):
			a.bits[op.ptr] = a.unlockBits(op.ptr, a.all, toBits)
		}
	}
	for _, v := range a.recv {
		a.bits[v] = a.unlockBits(v, a.all, toBits)
	}
	a.allChans = bitset.New(uint(len(lockable)))
	for _, o := range chans {
		a.allChans.Set(a.lockBit[o])
	}
	for v := range lockSends {
		addHeld(v)
	}
	for _, vs := range a.recvsOf {
		for _, v := range vs {
			a.bits[v] = a.unlockBits(v, a.allChans, toBits)
		}
	}
}

// lockBits numbers the lockable objects among objs.
func (a *analysis) lockBits(objs []pointsto.Ctx) *bitset.BitSet {
	b := bitset.New(a.all.Len())
	for _, o := range objs {
		if k, ok := a.lockBit[o]; ok {
			b.Set(k)
		}
	}
	return b
}

// entryLockBases returns the parameters an entry lock may be based on:
// those some call passes x of a lock &x.g that Lock may take, or another
// such parameter; and the fields g of those locks.
func (a *analysis) entryLockBases() (*bitset.BitSet, map[uint32]bool) {
	nV := uint(a.f.Size(pointsto.DomV))
	bases, params := bitset.New(nV), bitset.New(nV)
	lockFields := map[uint32]bool{}
	var work []uint32
	for i, op := range a.lockOps {
		if t, ok := tupleOf(a.f, "fieldAddr", op.ptr); ok && a.isGen(i, op) && !bases.Test(uint(t[1])) {
			bases.Set(uint(t[1]))
			work = append(work, t[1])
			lockFields[t[2]] = true
		}
	}
	asArg := map[uint32][][2]uint32{} // V -> (call site, parameter index) it is passed as
	for i, args := range a.actuals {
		for _, arg := range args {
			asArg[arg[1]] = append(asArg[arg[1]], [2]uint32{i, arg[0]})
		}
	}
	// Terminates: a value enters work once (bases only grows, within V).
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, use := range asArg[v] {
			for _, c := range a.cg[use[0]] {
				if p, ok := a.formals[c][use[1]]; ok && !bases.Test(uint(p)) {
					bases.Set(uint(p))
					params.Set(uint(p))
					work = append(work, p)
				}
			}
		}
	}
	return params, lockFields
}

// entryLockID returns the id of the entry lock at &base.g, making it on
// first use, or false when no lockable object can be that lock (its
// parameter points to nothing the analysis sees: it could never be
// released, so it is never held).
func (a *analysis) entryLockID(base, g uint32) (uint32, bool) {
	k := entryLock{base, g}
	if id, ok := a.entryIDs[k]; ok {
		return id, id != pointsto.NoID
	}
	var objs []pointsto.Ctx
	for _, o := range a.paramObjs[base] {
		if sub, ok := a.subObjs[[2]uint32{o, g}]; ok {
			objs = append(objs, sub)
		}
	}
	slices.Sort(objs)
	objs = slices.Compact(objs)
	bits := a.lockBits(objs)
	if bits.None() {
		a.entryIDs[k] = pointsto.NoID
		return 0, false
	}
	id := a.nV + uint32(len(a.entryLocks))
	a.entryLocks = append(a.entryLocks, k)
	a.entryIDs[k] = id
	a.objs[id], a.heldBits[id] = objs, bits
	return id, true
}

// translate gives the lockset that call site i passes to its callee c.
// A lock held at &x.g, x passed as c's parameter p, is held at c's entry
// at &p.g too: p is x's value for the whole activation (an SSA parameter
// is never assigned), so the two addresses are one. Helds of c's own
// values, or entry locks of c, that are not made here are dropped: they
// would name the calling activation's values in the new one (recursion).
func (a *analysis) translate(i, c uint32, held lockset) lockset {
	var out lockset
	for _, h := range held {
		if a.owner(h.Ptr) != c {
			out = append(out, h)
		}
	}
	for _, h := range held {
		x, g, ok := lockAddr(a.f, a.nV, a.entryLocks, h.Ptr)
		if !ok {
			continue
		}
		for _, arg := range a.actuals[i] {
			p, ok := a.formals[c][arg[0]]
			if arg[1] != x || !ok {
				continue
			}
			if id, ok := a.entryLockID(p, g); ok {
				k, found := slices.BinarySearchFunc(out, id, func(x Held, p uint32) int { return cmp.Compare(x.Ptr, p) })
				if found {
					out[k].Read = out[k].Read || h.Read // held for reading at best
				} else {
					out = slices.Insert(out, k, Held{Ptr: id, Read: h.Read})
				}
			}
		}
	}
	return out
}

// heldObjs returns the objects the lock of Held Ptr ptr may be where an
// instance with contexts in (Instance.In) holds it, sorted. Sound: a Held
// is taken in a frame of the goroutine's own call stack (a goroutine's
// entry holds nothing, and a callee's entry only what its callers in the
// goroutine hold), the function owning ptr runs there in a context in(m)
// gives (mhp's threadReach over-approximates them), and in that context
// the points-to over-approximates the lock pointer's values; an entry
// lock &p.g is p's objects' field g, p a parameter of that function.
func (a *analysis) heldObjs(ptr uint32, in func(m uint32) []pointsto.Ctx) []pointsto.Ctx {
	if in == nil {
		return a.objs[ptr]
	}
	m := a.owner(ptr)
	if m == pointsto.NoID {
		return a.objs[ptr] // a global's address, or an object lock: one object
	}
	ctxs := in(m)
	base, isEntry := ptr, ptr >= a.nV
	var g uint32
	if isEntry {
		base, g = a.entryLocks[ptr-a.nV].base, a.entryLocks[ptr-a.nV].field
	}
	var out []pointsto.Ctx
	for _, co := range a.ctxObjs[base] {
		if _, ok := slices.BinarySearch(ctxs, co[0]); !ok {
			continue
		}
		o := co[1]
		if isEntry {
			sub, ok := a.subObjs[[2]uint32{o, g}]
			if !ok {
				continue
			}
			o = sub
		}
		out = append(out, o)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// objectLockBase is the first id of an object lock: a Held that stands for
// one unique mutex object, whatever value took it (withObjectLocks). V ids
// and entry locks' ids stay below it.
const objectLockBase = 1 << 31

func (a *analysis) isObjectLock(ptr uint32) bool { return ptr >= objectLockBase }

// objectLockID returns the id of the object lock of o, making it on first
// use from the Held of Ptr from (which names it in reports).
func (a *analysis) objectLockID(o pointsto.Ctx, from uint32) uint32 {
	if id, ok := a.objectLockIDs[o]; ok {
		return id
	}
	id := uint32(objectLockBase + len(a.objectLocks))
	a.objectLocks = append(a.objectLocks, from)
	a.objectLockIDs[o] = id
	a.objs[id] = []pointsto.Ctx{o}
	a.heldBits[id] = a.lockBits(a.objs[id])
	return id
}

// isChanHeld reports whether the Held of Ptr ptr is a channel sent on.
func (a *analysis) isChanHeld(ptr uint32) bool {
	if ptr >= a.nV {
		return false
	}
	_, ok := a.f.Value(ptr).Type().Underlying().(*types.Chan)
	return ok
}

// owner returns the function whose value a Held's Ptr is (NoID for a
// global's address and an object lock).
func (a *analysis) owner(ptr uint32) uint32 {
	if a.isObjectLock(ptr) {
		return pointsto.NoID
	}
	if ptr >= a.nV {
		return a.f.ValueFunc(a.entryLocks[ptr-a.nV].base)
	}
	return a.f.ValueFunc(ptr)
}

// lockAddr returns the base x and the field g of a lock at &x.g: a Lock's
// FieldAddr pointer, or an entry lock (ids from nV on).
func lockAddr(f *pointsto.Facts, nV uint32, entries []entryLock, ptr uint32) (x, g uint32, ok bool) {
	if ptr >= objectLockBase {
		return 0, 0, false
	}
	if ptr >= nV {
		e := entries[ptr-nV]
		return e.base, e.field, true
	}
	if _, ok := f.Value(ptr).(*ssa.FieldAddr); !ok {
		return 0, 0, false
	}
	t, ok := tupleOf(f, "fieldAddr", ptr)
	if !ok {
		return 0, 0, false
	}
	return t[1], t[2], true
}

// findLockChans finds the channels a send may add as a Held: made by make
// with the constant capacity 1. And it finds the channels some send or
// close may operate on, and the ones some close may close, anywhere in the
// analyzed code.
func (a *analysis) findLockChans() {
	capOne := map[uint32]bool{}
	for _, t := range a.f.Tuples("chanCap") {
		if t[1] == 1 {
			capOne[t[0]] = true
		}
	}
	a.lockChans, a.sent, a.closed = map[pointsto.Ctx]bool{}, map[pointsto.Ctx]bool{}, map[pointsto.Ctx]bool{}
	for _, cases := range a.chanCases {
		for _, c := range cases {
			for _, o := range a.objs[c.ch] {
				if h := a.contexts.Site(o); capOne[h] && a.f.Site(h).Kind == pointsto.SiteMakeChan {
					a.lockChans[o] = true
				}
				switch c.z {
				case pointsto.ChanSend:
					a.sent[o] = true
				case pointsto.ChanClose:
					a.sent[o], a.closed[o] = true, true
				}
			}
		}
	}
}

func (a *analysis) isLockChan(o pointsto.Ctx) bool { return a.lockChans[o] }

// chanLocks gives Prove the channels of capacity 1 that a Held may stand
// for, the receives that may take from them, and the ones that may be
// closed.
func (a *analysis) chanLocks() chanLocks {
	var out chanLocks
	held := map[pointsto.Ctx]bool{}
	for o := range a.lockChans {
		if _, ok := a.lockBit[o]; ok {
			held[o] = true
			out.objs = append(out.objs, o)
			if a.closed[o] {
				out.closed = append(out.closed, o)
			}
		}
	}
	slices.Sort(out.objs)
	slices.Sort(out.closed)
	for e, cases := range a.chanCases {
		for _, c := range cases {
			if c.z == pointsto.ChanRecv && slices.ContainsFunc(a.objs[c.ch], func(o pointsto.Ctx) bool { return held[o] }) {
				out.recvs = append(out.recvs, [2]uint32{e, c.ch})
			}
		}
	}
	slices.SortFunc(out.recvs, func(x, y [2]uint32) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	out.recvs = slices.Compact(out.recvs)
	return out
}

// unlockBits is what a release through v may release: the lockable objects
// v may point to, or unknown if v points to nothing.
func (a *analysis) unlockBits(v uint32, unknown *bitset.BitSet, toBits func(uint32) *bitset.BitSet) *bitset.BitSet {
	if len(a.objs[v]) == 0 {
		return unknown
	}
	return toBits(v)
}

// releasesAt passes to add what call site i may release when the call runs
// (at the call, or at RunDefers for a deferred one): the lock of an
// Unlock/RUnlock; the receiver of a sync unlock method called through an
// interface or a method expression; otherwise what its callees may
// release. A lock operation's own callee (the sync method's body) does not
// count: the lockOp models it.
func (a *analysis) releasesAt(i uint32, add func(*bitset.BitSet)) {
	if a.goCall[i] {
		return // another goroutine: not ordered with this one (see doc.go)
	}
	if op, ok := a.lockOps[i]; ok {
		if isUnlock(op) {
			add(a.bits[op.ptr])
		}
		return
	}
	for _, m := range a.cg[i] {
		fn := a.f.Func(m)
		switch {
		case isUnlockMethod(fn):
			if v, ok := a.recv[i]; ok {
				add(a.bits[v])
			} else {
				add(a.all)
			}
		case syncMethod(fn, "Cond", "Wait"):
			// Wait releases c.L and takes it again before it returns.
		default:
			add(a.unlocks[m])
		}
	}
}

// summarize computes, for each function, the lockable objects a call of it
// may release (its own unlocks and receives, deferred ones included, and
// its callees'), as a fixpoint over the call graph.
func (a *analysis) summarize() {
	nM := a.f.Size(pointsto.DomM)
	a.unlocks = make([]*bitset.BitSet, nM)
	callers := make([][]uint32, nM)
	for m, is := range a.callsOf {
		for _, i := range is {
			for _, c := range a.cg[i] {
				callers[c] = append(callers[c], uint32(m))
			}
		}
	}
	work := make([]uint32, nM)
	inWork := make([]bool, nM)
	for m := range work {
		work[m], inWork[m] = uint32(m), true
	}
	for len(work) > 0 {
		m := work[0]
		work, inWork[m] = work[1:], false
		u := a.unlocks[m]
		grew := false
		add := func(b *bitset.BitSet) {
			if b == nil || b.None() {
				return
			}
			if u == nil {
				u = bitset.New(a.all.Len())
			}
			if !u.IsSuperSet(b) {
				u.InPlaceUnion(b)
				grew = true
			}
		}
		for _, i := range a.callsOf[m] {
			a.releasesAt(i, add)
		}
		for _, v := range a.recvsOf[m] {
			add(a.bits[v])
		}
		a.unlocks[m] = u
		if grew {
			for _, c := range callers[m] {
				if !inWork[c] {
					work, inWork[c] = append(work, c), true
				}
			}
		}
	}
}

// summarizeAcquires computes, for each function, the locks it holds on
// every return when it starts holding none (a helper that locks and
// returns, as func() int { mu.Lock(); return 1 }()): the least fixpoint
// over the call graph, starting from none, so every summary is backed by
// a Lock the function or its callees take.
func (a *analysis) summarizeAcquires() {
	nM := a.f.Size(pointsto.DomM)
	a.acquires = make([]lockset, nM)
	for changed := true; changed; {
		changed = false
		for m := range nM {
			if !a.flow[m] || !a.mayLock(uint32(m)) {
				continue
			}
			if exit := a.exitSet(uint32(m)); !slices.Equal(exit, a.acquires[m]) {
				a.acquires[m] = exit
				changed = true
			}
		}
	}
}

// mayLock reports whether m itself takes a lock (its callees' summaries
// come in through acquires).
func (a *analysis) mayLock(m uint32) bool {
	if a.locksChan[m] {
		return true
	}
	for _, i := range a.callsOf[m] {
		if op, ok := a.lockOps[i]; ok && a.isGen(i, op) {
			return true
		}
		for _, c := range a.cg[i] {
			if len(a.acquires[c]) > 0 {
				return true
			}
		}
	}
	return false
}

// exitSet runs m's body from an empty entry and meets the locksets at its
// returns.
func (a *analysis) exitSet(m uint32) lockset {
	fn := a.f.Func(m)
	in := make([]lockset, len(fn.Blocks))
	reached := make([]bool, len(fn.Blocks))
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	reached[0] = true
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		a.block(m, b, in[b.Index], nil, func(s *ssa.BasicBlock, out lockset) {
			if !reached[s.Index] {
				in[s.Index], reached[s.Index] = out, true
				work = append(work, s)
			} else if next := meet(in[s.Index], out); !slices.Equal(next, in[s.Index]) {
				in[s.Index] = next
				work = append(work, s)
			}
		})
	}
	var exit lockset
	first := true
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); !ok || !reached[b.Index] {
			continue
		}
		a.block(m, b, in[b.Index], nil, func(*ssa.BasicBlock, lockset) {})
		out := a.lastOut
		if first {
			exit, first = out, false
		} else {
			exit = meet(exit, out)
		}
	}
	return exit
}

// solve runs the dataflow of each function until the entry locksets are
// stable.
func (a *analysis) solve() {
	nM := a.f.Size(pointsto.DomM)
	a.entry = make([]lockset, nM)
	a.entryKnown = make([]bool, nM)
	a.queued = make([]bool, nM)
	for _, t := range a.f.Tuples("entry") {
		a.enter(t[0], nil)
	}
	for m, is := range a.callsOf {
		for _, i := range is {
			if a.goCall[i] || a.defer_[i] || !a.flow[m] {
				for _, c := range a.cg[i] {
					a.enter(c, nil)
				}
			}
		}
	}
	for {
		for len(a.queue) > 0 {
			m := a.queue[0]
			a.queue, a.queued[m] = a.queue[1:], false
			a.run(m)
		}
		// Functions no analyzed call reaches (called by code that is not
		// analyzed, or dead) hold nothing at entry.
		for m := range nM {
			if a.flow[m] && !a.entryKnown[m] {
				a.enter(uint32(m), nil)
			}
		}
		if len(a.queue) == 0 {
			return
		}
	}
}

// enter meets s into the entry lockset of m and queues m if it changed.
func (a *analysis) enter(m uint32, s lockset) {
	if !a.flow[m] {
		return
	}
	if a.entryKnown[m] {
		next := meet(a.entry[m], s)
		if slices.Equal(next, a.entry[m]) {
			return
		}
		a.entry[m] = next
	} else {
		a.entry[m], a.entryKnown[m] = slices.Clone(s), true
	}
	if !a.queued[m] {
		a.queue, a.queued[m] = append(a.queue, m), true
	}
}

// run computes the locksets in m's body from its entry lockset, records
// them at its accesses and passes them to its callees.
func (a *analysis) run(m uint32) {
	// The entry never holds a Held of m's own values (which would name
	// another activation's): translate drops them at every call.
	a.flowFrom(m, a.entry[m], func(instr ssa.Instruction, held lockset) {
		// Each run replaces the last one's locksets: the entry only
		// shrinks, and a lock an earlier entry held may be gone.
		for _, e := range a.f.AccessesAt(m, instr) {
			delete(a.held, e)
			if len(held) > 0 {
				a.held[e] = slices.Clone(held)
			}
		}
		for _, i := range a.calls[instr] {
			if !a.goCall[i] && !a.defer_[i] {
				for _, c := range a.cg[i] {
					a.enter(c, a.translate(i, c, held))
				}
			}
		}
	})
}

// flowFrom runs the dataflow of m's body from the entry lockset entry to
// its fixpoint, then passes visit each instruction with the lockset
// before it.
func (a *analysis) flowFrom(m uint32, entry lockset, visit func(ssa.Instruction, lockset)) {
	fn := a.f.Func(m)
	in := make([]lockset, len(fn.Blocks))
	reached, inWork := make([]bool, len(fn.Blocks)), make([]bool, len(fn.Blocks))
	var work []*ssa.BasicBlock
	push := func(b *ssa.BasicBlock) {
		if !inWork[b.Index] {
			work, inWork[b.Index] = append(work, b), true
		}
	}
	start := func(b *ssa.BasicBlock, s lockset) {
		in[b.Index], reached[b.Index] = s, true
		push(b)
	}
	start(fn.Blocks[0], entry)
	if fn.Recover != nil {
		start(fn.Recover, nil) // after a recovered panic the deferred calls have run
	}
	// Terminates: a block is queued again only when its input shrinks,
	// and a lockset holds finitely many Helds.
	for len(work) > 0 {
		b := work[0]
		work, inWork[b.Index] = work[1:], false
		a.block(m, b, in[b.Index], nil, func(s *ssa.BasicBlock, out lockset) {
			if !reached[s.Index] {
				start(s, out)
				return
			}
			if next := meet(in[s.Index], out); !slices.Equal(next, in[s.Index]) {
				in[s.Index] = next
				push(s)
			}
		})
	}
	for _, b := range fn.Blocks {
		if reached[b.Index] {
			a.block(m, b, in[b.Index], visit, func(*ssa.BasicBlock, lockset) {})
		}
	}
}

// block applies the instructions of b to the lockset in and passes the
// result of each outgoing edge to succ. A non-nil visit gets each
// instruction with the lockset before it.
func (a *analysis) block(m uint32, b *ssa.BasicBlock, in lockset, visit func(ssa.Instruction, lockset), succ func(*ssa.BasicBlock, lockset)) {
	s := state{held: slices.Clone(in)}
	for _, instr := range b.Instrs {
		if visit != nil {
			visit(instr, s.held)
		}
		if v, ok := instr.(ssa.Value); ok {
			if ptrs := a.defKills[v]; ptrs != nil {
				s.kill(func(h Held) bool { return slices.Contains(ptrs, h.Ptr) })
			}
		}
		for _, e := range a.f.AccessesAt(m, instr) {
			a.chanOp(&s, instr, e)
		}
		switch instr := instr.(type) {
		case *ssa.Call:
			for _, i := range a.calls[instr] {
				a.call(&s, instr, i)
			}
		case *ssa.RunDefers:
			for _, i := range a.callsOf[m] {
				if a.defer_[i] {
					a.releasesAt(i, func(u *bitset.BitSet) { a.release(&s, u) })
				}
			}
		}
	}
	a.lastOut = s.held
	for k, to := range b.Succs {
		out := s.held
		if cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && k == 0 {
			for _, t := range s.tries {
				if t.call == cond.Cond {
					out = slices.Clone(out).gen(t.held)
				}
			}
			if st, ok := selectCase(b); ok {
				if st.Dir == types.RecvOnly && a.neverReady(st.Chan) {
					continue // the case is never chosen: the edge is never taken
				}
				if v, ok := a.chanVal[st.Chan]; ok && st.Dir == types.SendOnly && a.heldBits[v] != nil {
					out = slices.Clone(out).gen(Held{Ptr: v})
				}
			}
		}
		succ(to, out)
	}
}

// chanOp applies channel operation e, which instruction instr is, to s: a
// receive, or a select with a receive case, releases the channel-locks its
// channel may be (whichever case the select takes: releasing too much is
// safe); a send on a channel of capacity 1 adds it. A select's send case
// adds it only on its case's edge (block).
func (a *analysis) chanOp(s *state, instr ssa.Instruction, e uint32) {
	_, isSelect := instr.(*ssa.Select)
	for _, c := range a.chanCases[e] {
		switch {
		case c.z == pointsto.ChanRecv:
			a.release(s, a.bits[c.ch])
		case c.z == pointsto.ChanSend && !isSelect && a.heldBits[c.ch] != nil:
			s.held = s.held.gen(Held{Ptr: c.ch})
		}
	}
}

// selectCase reports whether b ends in the test of a select's case st, the
// If whose true edge is taken when the select chose st: "if idx ==
// k", idx the select's chosen index. Only if nothing else runs between the
// select and the If, as go/ssa lays out a select: b is the select's block,
// or b holds only the test and is the false edge of such a block.
func selectCase(b *ssa.BasicBlock) (*ssa.SelectState, bool) {
	sel, k, ok := caseTest(b)
	if !ok {
		return nil, false
	}
	for x := b; ; {
		if x == sel.Block() {
			// After the select, only its index and the tests.
			for _, instr := range x.Instrs[slices.Index(x.Instrs, ssa.Instruction(sel))+1:] {
				switch instr.(type) {
				case *ssa.Extract, *ssa.BinOp, *ssa.If:
				default:
					return nil, false
				}
			}
			break
		}
		if len(x.Instrs) != 2 || len(x.Preds) != 1 {
			return nil, false
		}
		p := x.Preds[0]
		if s, _, ok := caseTest(p); !ok || s != sel || p.Succs[1] != x {
			return nil, false
		}
		x = p
	}
	if k < 0 || k >= int64(len(sel.States)) {
		return nil, false
	}
	return sel.States[k], true
}

// caseTest reports whether b ends in "if idx == k", idx a select's chosen
// index (its result #0).
func caseTest(b *ssa.BasicBlock) (*ssa.Select, int64, bool) {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, 0, false
	}
	eq, ok := cond.Cond.(*ssa.BinOp)
	if !ok || eq.Op != token.EQL || eq.Block() != b {
		return nil, 0, false
	}
	idx, ok1 := eq.X.(*ssa.Extract)
	k, ok2 := eq.Y.(*ssa.Const)
	if !ok1 || !ok2 || idx.Index != 0 || k.Value == nil {
		return nil, 0, false
	}
	sel, ok := idx.Tuple.(*ssa.Select)
	if !ok {
		return nil, 0, false
	}
	n, exact := constant.Int64Val(k.Value)
	return sel, n, exact
}

// neverReady reports whether a receive from ch can never proceed: ch may
// be some channel, and every channel it may be was made by make in the
// analyzed code and nothing in it sends on or closes that channel. A ch
// that points to nothing could be nil, whose receive blocks forever, but
// also a channel the points-to lost (time.Tick's, made behind an unsafe
// conversion): it may be ready. (Sends and closes through reflect or code
// that is not analyzed are not seen: pointsto's limits.)
func (a *analysis) neverReady(ch ssa.Value) bool {
	v, ok := a.chanVal[ch]
	if !ok || len(a.objs[v]) == 0 {
		return false
	}
	for _, o := range a.objs[v] {
		if a.sent[o] || a.f.Site(a.contexts.Site(o)).Kind != pointsto.SiteMakeChan {
			return false
		}
	}
	return true
}

// call applies call site i of instruction call to s.
func (a *analysis) call(s *state, call *ssa.Call, i uint32) {
	if op, ok := a.lockOps[i]; ok && a.isGen(i, op) {
		if a.heldBits[op.ptr] == nil {
			return
		}
		h := Held{Ptr: op.ptr, Read: op.z == pointsto.LockRLock || op.z == pointsto.LockTryRLock}
		if op.z == pointsto.LockTryLock || op.z == pointsto.LockTryRLock {
			s.tries = append(s.tries, tryLock{call: call, held: h})
		} else {
			s.held = s.held.gen(h)
		}
		return
	}
	a.releasesAt(i, func(b *bitset.BitSet) { a.release(s, b) })
	// Locks every callee returns holding.
	var got lockset
	for k, c := range a.cg[i] {
		if !a.flow[c] {
			return
		}
		if k == 0 {
			got = a.acquires[c]
		} else {
			got = meet(got, a.acquires[c])
		}
	}
	for _, h := range got {
		if a.owner(h.Ptr) == a.f.Caller(i) {
			continue // a value of the caller's own: another activation's (recursion)
		}
		s.held = s.held.gen(h)
	}
}

// release removes the Held that may be one of the objects of b.
func (a *analysis) release(s *state, b *bitset.BitSet) {
	if b == nil || b.None() {
		return
	}
	s.kill(func(h Held) bool { return a.heldBits[h.Ptr].IntersectionCardinality(b) > 0 })
}

// Name names the lock of h by the expression its address comes from, and
// where it is: "&c.mu (cache.go:61)". An entry lock is named by the
// callee's parameter, "&c.mu (cache.go:70, held by its callers)".
func (l *Locksets) Name(h Held) string {
	f := l.facts
	if l.flow.isObjectLock(h.Ptr) {
		return l.Name(Held{Ptr: l.flow.objectLocks[h.Ptr-objectLockBase], Read: h.Read}) + " (one object, held by every caller)"
	}
	v, suffix := h.Ptr, ""
	var name string
	if h.Ptr >= l.flow.nV {
		e := l.flow.entryLocks[h.Ptr-l.flow.nV]
		v, suffix = e.base, ", held by its callers"
		name = "&" + f.Value(v).Name() + "." + f.Field(e.field).Name()
	} else {
		switch val := f.Value(v).(type) {
		case *ssa.FieldAddr:
			name = "&" + val.X.Name() + "." + fieldName(val)
		case *ssa.Global:
			name = "&" + val.Name()
		case *ssa.Alloc:
			name = val.Name()
			if val.Comment != "" {
				name = "&" + val.Comment
			}
		default:
			name = val.Name()
		}
	}
	if p := f.ValuePos(v); p.IsValid() {
		name = fmt.Sprintf("%s (%s:%d%s)", name, p.Filename, p.Line, suffix)
	} else if suffix != "" {
		name = fmt.Sprintf("%s (%s)", name, suffix[2:])
	}
	if h.Read {
		name += " (read-locked)"
	}
	return name
}

func fieldName(fa *ssa.FieldAddr) string {
	if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
		if st, ok := ptr.Elem().Underlying().(*types.Struct); ok && fa.Field < st.NumFields() {
			return st.Field(fa.Field).Name()
		}
	}
	return fmt.Sprint("field ", fa.Field)
}
