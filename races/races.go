package races

import (
	"cmp"
	_ "embed"
	"encoding/binary"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/condmustnot"
	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/escape"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

//go:embed races.dl
var rulesSource string

var parseRules = datalog.Embedded("races.dl", rulesSource)

// Options turn stages of the funnel off, for diagnosis, and widen the
// report.
type Options struct {
	NoEscape   bool // keep pairs on objects that do not escape
	NoInstance bool // keep goroutine pairs (g, g) on objects no two instances of g reach
	NoMHP      bool // keep pairs ordered by happens-before
	NoLocks    bool // keep pairs protected by a common lock
	Std        bool // report races whose accesses are all outside the analyzed packages
}

// An Access is one side of a race.
type Access struct {
	E          uint32   // the access (pointsto E id)
	Write      bool     // writes the location (or one of them) it races on
	Atomic     bool     // a sync/atomic operation
	Goroutines []uint32 // the goroutines (mhp) in which it races, sorted
}

// A Race is a pair of accesses that may touch one location at the same
// time, at least one of them a write, not both atomic.
type Race struct {
	Accesses  [2]Access      // ordered by E id
	Locations []pointsto.Ctx // the abstract locations both may touch, sorted
	Pairs     [][2]uint32    // the goroutines (mhp) of the two accesses that may race, sorted
}

// Stats counts the access pairs left after each stage (Naik's Table 2.4)
// and the time each stage took.
type Stats struct {
	Original, Aliasing, Escaping, Parallel, Unlocked int
	Times                                            map[string]time.Duration
}

// Result is the outcome of the funnel.
type Result struct {
	Races      []Race
	Stats      Stats
	Goroutines *mhp.Goroutines
	Order      *mhp.Order
	Locks      *condmustnot.Locksets
	byG        *condmustnot.GoroutineLocksets
	// InstanceWork is the size of instance escape's input: the (context,
	// function) pairs each goroutine of the pairs it checks reaches
	// (threadReach), summed over those goroutines; instance.dl joins each
	// with the points-to of that context. InstanceSkipped says the stage
	// did not run, InstanceWork having passed FindAfter's budget.
	InstanceWork    int
	InstanceSkipped bool
}

// Held returns the locks that must be held at access e where goroutine g
// runs it (none when the lock stage did not run).
func (r *Result) Held(e, g uint32) []condmustnot.Held {
	switch {
	case r.byG != nil:
		return r.byG.In(e, g)
	case r.Locks != nil:
		return r.Locks.Access(e)
	}
	return nil
}

// HeldAtCall returns the locks that must be held just before call site i
// (a P id) where goroutine g makes it (none when the lock stage did not
// run): the locks held on a frame of a call path.
func (r *Result) HeldAtCall(i, g uint32) []condmustnot.Held {
	if r.byG == nil {
		return nil
	}
	return r.byG.AtCall(i, g)
}

// Find runs the funnel over the points-to result r.
func Find(r *pointsto.Result, opts Options) (*Result, error) {
	return NewFinder(r.Facts, opts).Find(r, nil)
}

// A Finder runs the funnel over the points-to results of one set of facts
// under any number of Sigmas (the demand loop's runs), and of each of its
// programs (pointsto.Analyzer.Program), from several goroutines at once if
// need be. What does not depend on Sigma or the program, the
// classification of the accesses, is computed by the first run and kept.
type Finder struct {
	f       *pointsto.Facts
	opts    Options
	accOnce sync.Once
	acc     *accessInfo
}

// NewFinder returns a Finder for the points-to results of facts f. It
// classifies the accesses on another core meanwhile (the first points-to
// run, which the first Find needs, takes longer): the classification reads
// only the facts and the SSA, which nothing changes then.
func NewFinder(f *pointsto.Facts, opts Options) *Finder {
	fd := &Finder{f: f, opts: opts}
	go fd.classified()
	return fd
}

// classified returns the classification of the accesses, made once.
func (fd *Finder) classified() *accessInfo {
	fd.accOnce.Do(func() { fd.acc = classify(fd.f, fd.opts.Std) })
	return fd.acc
}

// Find runs the funnel over the points-to result r. If among is not nil,
// it only checks those pairs of accesses (E ids, the lower first): it
// returns the races of the whole funnel that are among them, as the whole
// funnel returns them (same locations and goroutines), and Stats count
// the pairs of their accesses only.
func (fd *Finder) Find(r *pointsto.Result, among map[[2]uint32]bool) (*Result, error) {
	return fd.FindAfter(r, among, nil, 0)
}

// FindAfter is Find for a later run of a program whose earlier run's
// order of events had the Flow flow (Result.Order.Flow): where this run's
// events and call graph are the same, the order takes that run's dataflow
// (mhp.NewOrder), and the result is Find's. A positive instanceBudget
// bounds the instance escape stage's input (Result.InstanceWork): past it,
// the stage does not run. That is sound, as every stage is: a stage only
// removes pairs, so without it the run reports every pair the whole funnel
// would and perhaps more; the demand loop gives a later run the budget
// its first run's stage used, times its growth bound, as the points-to's
// contexts are (a root split multiplies the contexts each goroutine
// reaches, and instance.dl's per-goroutine relations with them).
func (fd *Finder) FindAfter(r *pointsto.Result, among map[[2]uint32]bool, flow *mhp.Flow, instanceBudget int) (*Result, error) {
	f, opts := r.Facts, fd.opts
	if f.Whole() != fd.f.Whole() {
		return nil, fmt.Errorf("races: the points-to result is of other facts than the Finder's")
	}
	res := &Result{Stats: Stats{Times: map[string]time.Duration{}}}
	stage := func(name string, start time.Time) { res.Stats.Times[name] += time.Since(start) }

	// The escape analysis and the locksets read only the points-to (and
	// the facts), not what the stages before theirs compute: they run on
	// another core while the stages before theirs are computed. Their
	// stages' times below are the waits for them.
	type escapeResult struct {
		esc *bitset.BitSet
		err error
	}
	escaped := make(chan escapeResult, 1)
	if !opts.NoEscape {
		go func() {
			esc, err := escape.Escaping(r)
			escaped <- escapeResult{esc, err}
		}()
	}

	start := time.Now()
	gs, err := mhp.FindGoroutines(r)
	if err != nil {
		return nil, err
	}
	res.Goroutines = gs
	stage("goroutines", start)

	// The order of events reads the points-to and the goroutines only: it
	// is built on another core while the accesses, aliasing and escape
	// are decided, and the parallel stage's time includes the wait for it.
	type ordered struct {
		order *mhp.Order
		cg    map[uint32][]uint32
	}
	orders := make(chan ordered, 1)
	go func() {
		cg := r.CallGraph()
		orders <- ordered{mhp.NewOrder(r, gs, func(i uint32) []uint32 { return cg[i] }, flow), cg}
	}()

	start = time.Now()
	acc := fd.classified()
	var checked *bitset.BitSet // the accesses of among; nil: all
	if among != nil {
		checked = bitset.New(0)
		for p := range among {
			checked.Set(uint(p[0]))
			checked.Set(uint(p[1]))
		}
	}
	locs, err := accessLocations(r, gs, acc, checked)
	if err != nil {
		return nil, err
	}
	stage("accesses", start)

	start = time.Now()
	pairs := aliasing(locs, acc, resliced(r, acc))
	if among != nil {
		pairs = slices.DeleteFunc(pairs, func(p pair) bool { return !among[p.e] })
	}
	res.Stats.Original = originalPairs(r, locs)
	res.Stats.Aliasing = countPairs(pairs)
	stage("aliasing", start)

	start = time.Now()
	if !opts.NoEscape {
		e := <-escaped
		if e.err != nil {
			return nil, e.err
		}
		pairs = slices.DeleteFunc(pairs, func(p pair) bool { return !e.esc.Test(uint(p.o)) })
		if !opts.NoInstance {
			res.InstanceWork = instanceWork(gs, pairs)
			res.InstanceSkipped = instanceBudget > 0 && res.InstanceWork > instanceBudget
			if !res.InstanceSkipped {
				if pairs, err = instanceEscape(r, gs, pairs); err != nil {
					return nil, err
				}
			}
		}
	}
	res.Stats.Escaping = countPairs(pairs)
	stage("escaping", start)
	// The locksets read only the points-to and the facts, and are needed
	// by the last stage alone: they start now, beside the order's tail
	// and the parallel stage, which leave a core idle, rather than beside
	// the goroutines and the accesses, whose split scans use both.
	locksets := make(chan *condmustnot.Locksets, 1)
	go func() { locksets <- condmustnot.Compute(f, r) }()

	start = time.Now()
	o := <-orders
	order, cg := o.order, o.cg
	res.Order = order
	parallel(order, f, pairs, len(gs.List), opts.NoMHP)
	dropAlone(pairs)
	pairs = slices.DeleteFunc(pairs, func(p pair) bool { return len(p.gp) == 0 })
	res.Stats.Parallel = countPairs(pairs)
	stage("parallel", start)

	start = time.Now()
	locks := <-locksets
	res.Locks = locks
	if !opts.NoLocks {
		unique := gs.Unique(r)
		isUnique := func(o pointsto.Ctx) bool { return unique.Test(uint(o)) }
		protected, err := condmustnot.Prove(locks, isUnique, accessPairs(pairs))
		if err != nil {
			return nil, err
		}
		pairs = slices.DeleteFunc(pairs, func(p pair) bool { return protected[p.e] })
		ctxs := goroutineContexts(gs, pairs)
		res.byG = locks.ByGoroutine(gs.Of, threadStarts(gs), ctxs, isUnique)
		li := newLockInstances(res.byG, ctxs)
		if pairs, err = unlockedInGoroutines(locks, li, isUnique, pairs); err != nil {
			return nil, err
		}
		if !opts.NoMHP {
			proving := time.Now()
			cp := newCallPaths(f, gs, order, li, cg)
			if pairs, err = cp.prove(locks, isUnique, pairs); err != nil {
				return nil, err
			}
			stage("callpaths", proving)
		}
	}
	res.Stats.Unlocked = countPairs(pairs)
	stage("unlocked", start)

	res.Races = group(pairs, acc)
	return res, nil
}

// parallel sets the goroutine pairs of each pair in which its two accesses
// may run at the same time. Whether they do depends on the accesses and the
// goroutines, not on the location: an access pair touches many locations
// (the objects of one field), most often with the same goroutines. So the
// rules that look at the accesses alone are decided once per access pair
// (mhp.Order.Pair), each goroutine pair is asked about once per access
// pair, and the pairs of one access pair whose goroutines are the same get
// one list of goroutine pairs, with one id (pair.shared), which the
// unlocked stage decides once. What is kept for one access pair goes when
// the next begins: the answers by goroutine pair, a row of bytes per first
// goroutine (of goroutines goroutines), cleared where written.
func parallel(order *mhp.Order, f *pointsto.Facts, pairs []pair, goroutines int, noMHP bool) {
	byAccesses := make([]int, len(pairs))
	for i := range byAccesses {
		byAccesses[i] = i
	}
	slices.SortStableFunc(byAccesses, func(i, j int) int { return comparePairs(pairs[i].e, pairs[j].e) })
	shared := 0
	const (
		unknown int8 = iota
		concurrent
		ordered
	)
	answers := make([][]int8, goroutines) // by goroutine pair, for the access pair asked
	var written []uint32                  // the rows of answers written
	for len(byAccesses) > 0 {
		e := pairs[byAccesses[0]].e
		n := 1
		for n < len(byAccesses) && pairs[byAccesses[n]].e == e {
			n++
		}
		byGoroutines := map[string]*pair{} // the first pair with these goroutines
		var firsts []*pair
		var others [][2]*pair // a pair and the first with its goroutines
		for _, i := range byAccesses[:n] {
			p := &pairs[i]
			key := goroutinesKey(p.g)
			if first, ok := byGoroutines[key]; ok {
				p.shared = first.shared
				others = append(others, [2]*pair{p, first})
				continue
			}
			byGoroutines[key] = p
			p.shared = shared
			shared++
			firsts = append(firsts, p)
		}
		accesses := order.Pair(f.Access(e[0]), f.Access(e[1]))
		for _, p := range firsts {
			// Answer and count first, then fill a list of that size: the
			// lists are most of the funnel's memory while the unlocked
			// stage runs (bbolt's tests: 459 MB, a third of it the slack
			// of growing them by append).
			n := 0
			for _, g0 := range p.g[0] {
				row := answers[g0]
				if row == nil {
					row = make([]int8, goroutines)
					answers[g0] = row
				}
				written = append(written, g0)
				for _, g1 := range p.g[1] {
					if row[g1] == unknown {
						row[g1] = ordered
						if noMHP || !accesses.Ordered(g0, g1) && !order.Apart(e[0], g0, e[1], g1) {
							row[g1] = concurrent
						}
					}
					if row[g1] == concurrent {
						n++
					}
				}
			}
			p.gp = make([][2]uint32, 0, n) // shared: no room, so an append must copy
			for _, g0 := range p.g[0] {
				for _, g1 := range p.g[1] {
					if answers[g0][g1] == concurrent {
						p.gp = append(p.gp, [2]uint32{g0, g1})
					}
				}
			}
		}
		for _, g0 := range written {
			clear(answers[g0])
		}
		written = written[:0]
		for _, o := range others {
			o[0].gp = o[1].gp
		}
		byAccesses = byAccesses[n:]
	}
}

// goroutinesKey encodes the goroutine lists of a pair's two accesses.
func goroutinesKey(g [2][]uint32) string {
	b := make([]byte, 0, 4*(len(g[0])+len(g[1])+1))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(g[0])))
	for _, l := range g {
		for _, x := range l {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
	}
	return string(b)
}

// accessInfo classifies the accesses.
type accessInfo struct {
	read, write, atomic *bitset.BitSet
	analyzed, other     *bitset.BitSet       // see races.dl
	elems               map[elemKey][2]int64 // the elements [lo, hi) an access reads or writes, where constant
	allocatedBy         map[uint32]ssa.Value // accesses to an object through the instruction that allocated it
	slicedAtOffset      map[uint32]bool      // values (V) that some slicing with a lower bound other than 0 applies to
	pointers            *bitset.BitSet       // the values (V) analyzed and other accesses go through
}

// classify sorts accesses into those of the analyzed packages, the others
// that may race with them, and the ones that never take part: accesses in
// the synchronization primitives and the runtime, which are modeled by
// their documented semantics (DESIGN.md section 4), and channel operations.
func classify(f *pointsto.Facts, std bool) *accessInfo {
	n := uint(f.Size(pointsto.DomE))
	acc := &accessInfo{read: bitset.New(n), write: bitset.New(n), atomic: bitset.New(n), analyzed: bitset.New(n), other: bitset.New(n),
		elems: map[elemKey][2]int64{}, allocatedBy: map[uint32]ssa.Value{}, slicedAtOffset: slicedAtOffset(f)}
	for _, rel := range []struct {
		name string
		set  *bitset.BitSet
	}{{"read", acc.read}, {"mapRead", acc.read}, {"write", acc.write}, {"mapWrite", acc.write}, {"atomicAccess", acc.atomic}} {
		for _, t := range f.Tuples(rel.name) {
			rel.set.Set(uint(t[0]))
		}
	}
	freshAccesses := map[*ssa.Function]map[ssa.Instruction]bool{}
	handovers := mhp.NewHandovers()
	for _, t := range f.Tuples("accessFunc") {
		e, fn := t[0], f.Func(t[1])
		if !acc.read.Test(uint(e)) && !acc.write.Test(uint(e)) {
			continue
		}
		pkgOf := declaringPackage(fn)
		if pkgOf == nil {
			acc.other.Set(uint(e))
			continue
		}
		fresh, ok := freshAccesses[fn]
		if !ok {
			fresh = handovers.BeforeHandover(fn)
			freshAccesses[fn] = fresh
		}
		if instr := f.Access(e); resultReassign(instr) || fresh[instr] {
			continue
		}
		for _, write := range []bool{false, true} {
			if lo, hi, ok := elemRange(f.Access(e), write); ok {
				acc.elems[elemKey{e, write}] = [2]int64{lo, hi}
			}
		}
		if a := allocation(f.Access(e)); a != nil {
			acc.allocatedBy[e] = a
		}
		// The named packages are analyzed whatever module they are in:
		// the standard library, or files named on the command line
		// (command-line-arguments, no module), are reported when named.
		pkg := f.Prog.PackageOf(pkgOf.Pkg)
		switch {
		case modeled(pkgOf.Pkg.Path()):
		case pkg != nil && pkg.Initial || std:
			acc.analyzed.Set(uint(e))
		default:
			acc.other.Set(uint(e))
		}
	}
	acc.pointers = bitset.New(uint(f.Size(pointsto.DomV)))
	for _, rel := range []string{"read", "write", "mapRead", "mapWrite"} {
		for _, t := range f.Tuples(rel) {
			if acc.analyzed.Test(uint(t[0])) || acc.other.Test(uint(t[0])) {
				acc.pointers.Set(uint(t[1]))
			}
		}
	}
	return acc
}

// declaringPackage returns the package whose source holds fn's code, or nil
// (a wrapper, or no function). An instance of a generic function, and a
// closure inside one, has no Pkg of its own: its code is the origin's,
// written in the origin's package. Classifying it by a nil Pkg made two
// accesses in generic code of the analyzed packages both "other", a pair
// never checked (issue 10).
func declaringPackage(fn *ssa.Function) *ssa.Package {
	if fn == nil {
		return nil
	}
	if fn.Pkg == nil {
		if origin := fn.Origin(); origin != nil {
			return origin.Pkg
		}
	}
	return fn.Pkg
}

// resultReassign reports whether instr is the store of `*x = *x` that
// go/ssa emits for `return x` with a named result x that lives on the heap:
// the source writes nothing there, and neither does compiled code.
func resultReassign(instr ssa.Instruction) bool {
	st, ok := instr.(*ssa.Store)
	if !ok {
		return false
	}
	ld, ok := st.Val.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL || ld.X != st.Addr {
		return false
	}
	instrs := st.Block().Instrs
	i := slices.Index(instrs, instr)
	ret, ok := instrs[len(instrs)-1].(*ssa.Return)
	return i > 0 && instrs[i-1] == ld && ok && ret.Pos() == st.Pos()
}

// modeled reports whether a package's accesses are left out: it implements
// synchronization (modeled by its documented semantics) or is the runtime.
func modeled(path string) bool {
	switch path {
	case "sync", "sync/atomic", "internal/sync", "runtime", "internal/race":
		return true
	}
	return strings.HasPrefix(path, "internal/runtime/") || strings.HasPrefix(path, "runtime/internal/")
}

type elemKey struct {
	e     uint32
	write bool
}

// elemRange returns the elements [lo, hi) of an array or slice that instr
// reads (write false) or writes, when constants say: a load or store of
// one element at a constant index, or copy into (or from) a slice with
// constant bounds, s[lo:hi]. The indices count from the start of the
// slice or array the address is taken from; resliced says where that is
// not the start of the array.
func elemRange(instr ssa.Instruction, write bool) (lo, hi int64, ok bool) {
	switch instr := instr.(type) {
	case *ssa.Store:
		if write {
			return constIndex(instr.Addr)
		}
	case *ssa.UnOp:
		if !write && instr.Op == token.MUL {
			return constIndex(instr.X)
		}
	case *ssa.Call:
		if b, ok := instr.Call.Value.(*ssa.Builtin); ok && b.Name() == "copy" {
			arg := instr.Call.Args[1] // the source
			if write {
				arg = instr.Call.Args[0]
			}
			return constSlice(arg)
		}
	}
	return 0, 0, false
}

func constIndex(addr ssa.Value) (lo, hi int64, ok bool) {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok {
		return 0, 0, false
	}
	i, ok := intConst(ia.Index)
	return i, i + 1, ok
}

// constSlice returns the bounds of s[lo:hi] with constant bounds (lo may
// be left out).
func constSlice(v ssa.Value) (lo, hi int64, ok bool) {
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.High == nil {
		return 0, 0, false
	}
	if sl.Low != nil {
		if lo, ok = intConst(sl.Low); !ok {
			return 0, 0, false
		}
	}
	hi, ok = intConst(sl.High)
	return lo, hi, ok
}

func intConst(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// distinctElements reports whether two accesses to one array touch
// disjoint elements.
func (acc *accessInfo) distinctElements(x, y location) bool {
	r1, ok1 := acc.elems[elemKey{x.e, x.write}]
	r2, ok2 := acc.elems[elemKey{y.e, y.write}]
	return ok1 && ok2 && (r1[1] <= r2[0] || r2[1] <= r1[0])
}

// slicedAtOffset returns the values that some slicing with a lower bound
// other than 0 applies to.
func slicedAtOffset(f *pointsto.Facts) map[uint32]bool {
	ids := map[ssa.Value]uint32{}
	for v := range f.Size(pointsto.DomV) {
		ids[f.Value(uint32(v))] = uint32(v)
	}
	offset := map[uint32]bool{}
	for v := range f.Size(pointsto.DomV) {
		sl, ok := f.Value(uint32(v)).(*ssa.Slice)
		if !ok || sl.Low == nil {
			continue
		}
		if c, ok := sl.Low.(*ssa.Const); ok && c.Value != nil && constant.Sign(c.Value) == 0 {
			continue
		}
		if x, ok := ids[sl.X]; ok {
			offset[x] = true
		}
	}
	return offset
}

// resliced returns the element locations ([*] sub-objects) of the arrays
// that some slicing with a lower bound other than 0 may apply to: index i of
// such a slice is another index of the array, so constant indices do not
// tell elements apart there.
func resliced(r *pointsto.Result, acc *accessInfo) *bitset.BitSet {
	arrays := bitset.New(uint(r.Contexts.Len()))
	for t := range r.Tuples("pt") {
		if acc.slicedAtOffset[t[1]] {
			arrays.Set(uint(t[2]))
		}
	}
	out := bitset.New(uint(r.Contexts.Len()))
	for t := range r.Tuples("subObj") {
		if t[1] == pointsto.FieldElem && arrays.Test(uint(t[0])) {
			out.Set(uint(t[2]))
		}
	}
	return out
}

// allocation returns the allocating instruction (new, make, a composite
// literal) whose own result, or a field or element address of it, is the
// address instr loads from or stores to, if any.
func allocation(instr ssa.Instruction) ssa.Value {
	addr := pointsto.LoadStoreAddr(instr)
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap:
			return a
		default:
			return nil
		}
	}
}

// sameActivationObject reports whether both accesses reach their object
// through the result of one allocating instruction. Such a value names the
// object its own activation allocated, and two goroutines never share an
// activation: two different goroutines touch two different objects.
func (acc *accessInfo) sameActivationObject(e1, e2 uint32) bool {
	a1, ok1 := acc.allocatedBy[e1]
	a2, ok2 := acc.allocatedBy[e2]
	return ok1 && ok2 && a1 == a2
}

// location is an access by a goroutine to an abstract location.
type location struct {
	e, g  uint32
	write bool
}

// accessLocations gives the locations each access touches, per goroutine
// (races.dl's accessLoc), for the accesses in checked or, if it is nil, all.
func accessLocations(r *pointsto.Result, gs *mhp.Goroutines, acc *accessInfo, checked *bitset.BitSet) (map[pointsto.Ctx][]location, error) {
	prog, err := parseRules()
	if err != nil {
		return nil, err
	}
	var concurrent, sequential []uint32 // threadReach, split
	for t := range gs.Tuples("threadReach") {
		if gr := gs.List[t[0]]; gr.Kind == mhp.GoGoroutine || gr.Parallel {
			concurrent = append(concurrent, t...)
		} else {
			sequential = append(sequential, t...)
		}
	}
	var accessPt []uint32
	for t := range r.Tuples("pt") {
		if acc.pointers.Test(uint(t[1])) {
			accessPt = append(accessPt, t...)
		}
	}
	wanted := acc.analyzed.Union(acc.other)
	if checked != nil {
		wanted.InPlaceIntersection(checked)
	}
	db, err := r.Solve(prog, map[string][]uint32{
		"accessPt": accessPt, "concurrentReach": concurrent, "sequentialReach": sequential,
		"analyzed": members(acc.analyzed), "other": members(acc.other), "checked": members(wanted),
	})
	if err != nil {
		return nil, err
	}
	locs := map[pointsto.Ctx][]location{}
	for t := range db.Tuples("accessLoc") {
		locs[t[2]] = append(locs[t[2]], location{t[0], t[1], t[3] == 1})
	}
	return locs, nil
}

func members(s *bitset.BitSet) []uint32 {
	out := make([]uint32, 0, s.Count())
	for i, ok := s.NextSet(0); ok; i, ok = s.NextSet(i + 1) {
		out = append(out, uint32(i))
	}
	return out
}

// pair is two accesses to location o, each with the goroutines that may
// run it there; after the parallel stage, gp holds the goroutine pairs in
// which they may run at the same time, and pairs with the same shared id
// have the same accesses and one gp list (see parallel).
type pair struct {
	e      [2]uint32
	g      [2][]uint32
	gp     [][2]uint32
	shared int
	write  [2]bool
	o      pointsto.Ctx
	alone  []uint32 // the goroutines private on o: no pair of two of them races (instanceEscape)
}

// aliasing gives the pairs of accesses that may touch the same location,
// at least one a write, not both atomic, at least one analyzed.
func aliasing(locs map[pointsto.Ctx][]location, acc *accessInfo, resliced *bitset.BitSet) []pair {
	var pairs []pair
	objs := make([]pointsto.Ctx, 0, len(locs))
	for o := range locs {
		objs = append(objs, o)
	}
	slices.Sort(objs)
	type access struct {
		e     uint32
		write bool
	}
	for _, o := range objs {
		// The goroutines of each access: pairs of accesses, not of
		// (access, goroutine), keep this quadratic step small.
		byAccess := map[access][]uint32{}
		for _, x := range locs[o] {
			k := access{x.e, x.write}
			byAccess[k] = append(byAccess[k], x.g)
		}
		l := slices.Collect(maps.Keys(byAccess))
		slices.SortFunc(l, func(a, b access) int { return cmp.Or(cmp.Compare(a.e, b.e), boolCompare(a.write, b.write)) })
		for _, gs := range byAccess {
			slices.Sort(gs)
		}
		for i, x := range l {
			for _, y := range l[i:] {
				lx, ly := location{x.e, 0, x.write}, location{y.e, 0, y.write}
				if !x.write && !y.write ||
					acc.atomic.Test(uint(x.e)) && acc.atomic.Test(uint(y.e)) ||
					!acc.analyzed.Test(uint(x.e)) && !acc.analyzed.Test(uint(y.e)) ||
					!resliced.Test(uint(o)) && acc.distinctElements(lx, ly) ||
					acc.sameActivationObject(x.e, y.e) {
					continue
				}
				pairs = append(pairs, pair{e: [2]uint32{x.e, y.e}, g: [2][]uint32{byAccess[x], byAccess[y]}, write: [2]bool{x.write, y.write}, o: o})
			}
		}
	}
	return pairs
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// threadStarts tells whether goroutine g starts by running function m.
func threadStarts(gs *mhp.Goroutines) func(g, m uint32) bool {
	starts := map[[2]uint32]bool{}
	for t := range gs.Tuples("threadEntry") {
		starts[[2]uint32{t[0], t[2]}] = true
	}
	return func(g, m uint32) bool { return starts[[2]uint32{g, m}] }
}

// unlockedInGoroutines drops from each pair the goroutine pairs in which a
// common lock keeps its two accesses apart by the locksets of the
// goroutines that run them (condmustnot.GoroutineLocksets: a helper's
// callers in one goroutine may all hold a lock that a caller in another
// does not), and the pairs left with none.
func unlockedInGoroutines(locks *condmustnot.Locksets, li *lockInstances, unique func(pointsto.Ctx) bool, pairs []pair) ([]pair, error) {
	// Each list of goroutine pairs once: the pairs that share it (see
	// parallel) differ in their location only, which no lock proof reads.
	lists := distinctLists(pairs)
	var ipairs [][2]uint32
	for _, p := range lists {
		for _, gp := range p.gp {
			if q := [2]uint32{li.in(p.e[0], gp[0]), li.in(p.e[1], gp[1])}; q[0] != noLock && q[1] != noLock {
				ipairs = append(ipairs, q)
			}
		}
	}
	protected, err := locks.ProveInstances(li.insts, unique, ipairs)
	if err != nil {
		return nil, err
	}
	left := map[int][][2]uint32{} // by shared id
	for _, p := range lists {
		left[p.shared] = keptPairs(p.gp, func(_ int, gp [2]uint32) bool {
			return protected[[2]uint32{li.in(p.e[0], gp[0]), li.in(p.e[1], gp[1])}]
		})
	}
	for i := range pairs {
		pairs[i].gp = left[pairs[i].shared]
	}
	return slices.DeleteFunc(pairs, func(p pair) bool { return len(p.gp) == 0 }), nil
}

// keptPairs returns the goroutine pairs of list gp that drop (given each
// one's index) does not drop: gp itself when it drops none, else a list
// made to size. The lists are the bulk of the memory from the parallel
// stage to the report (bbolt's tests: 45 M goroutine pairs), and a list
// shared by pairs is replaced, not changed.
func keptPairs(gp [][2]uint32, drop func(j int, gp [2]uint32) bool) [][2]uint32 {
	dropped := make([]bool, len(gp))
	n := 0
	for j, x := range gp {
		if dropped[j] = drop(j, x); !dropped[j] {
			n++
		}
	}
	if n == len(gp) {
		return gp
	}
	kept := make([][2]uint32, 0, n)
	for j, x := range gp {
		if !dropped[j] {
			kept = append(kept, x)
		}
	}
	return kept
}

// lockInstances are the instances of the lock proofs
// (condmustnot.Instance) of accesses in goroutines, made once each: one
// per access and goroutine that runs it, with the locks held there, and
// those callPaths adds.
type lockInstances struct {
	byG   *condmustnot.GoroutineLocksets
	ctxs  func(g uint32) func(m uint32) []pointsto.Ctx
	index map[[2]uint32]uint32 // (e, g)
	insts []condmustnot.Instance
}

func newLockInstances(byG *condmustnot.GoroutineLocksets, ctxs func(g uint32) func(m uint32) []pointsto.Ctx) *lockInstances {
	return &lockInstances{byG: byG, ctxs: ctxs, index: map[[2]uint32]uint32{}}
}

// in returns the instance of access e where goroutine g runs it, noLock
// if no lock is held there.
func (li *lockInstances) in(e, g uint32) uint32 {
	key := [2]uint32{e, g}
	x, ok := li.index[key]
	if !ok {
		x = li.add(e, g, li.byG.In(e, g))
		li.index[key] = x
	}
	return x
}

// add makes an instance of access e in goroutine g holding held, noLock
// if it holds none.
func (li *lockInstances) add(e, g uint32, held []condmustnot.Held) uint32 {
	if len(held) == 0 {
		return noLock
	}
	li.insts = append(li.insts, condmustnot.Instance{E: e, Held: held, In: li.ctxs(g)})
	return uint32(len(li.insts) - 1)
}

// noLock marks an instance that holds no lock: condmustnot.dl proves a
// pair protected only from a lock each side holds (heldAt), so no query
// with it can be proved and none is made.
const noLock = ^uint32(0)

// distinctLists returns the first pair of each shared id, in order.
func distinctLists(pairs []pair) []*pair {
	seen := map[int]bool{}
	var out []*pair
	for i := range pairs {
		if p := &pairs[i]; !seen[p.shared] {
			seen[p.shared] = true
			out = append(out, p)
		}
	}
	return out
}

// goroutineContexts gives, for each goroutine of the pairs, the contexts
// in which it may run each function (mhp's threadReach), sorted, and nil
// for the other goroutines: the lock proof reads a lock's points-to in
// those contexts only.
func goroutineContexts(gs *mhp.Goroutines, pairs []pair) func(g uint32) func(m uint32) []pointsto.Ctx {
	wanted := map[uint32]bool{}
	for _, p := range distinctLists(pairs) {
		for _, gp := range p.gp {
			wanted[gp[0]], wanted[gp[1]] = true, true
		}
	}
	byG := map[uint32]map[uint32][]pointsto.Ctx{} // g -> m -> contexts
	for t := range gs.Tuples("threadReach") {
		g, c, m := t[0], t[1], t[2]
		if !wanted[g] {
			continue
		}
		if byG[g] == nil {
			byG[g] = map[uint32][]pointsto.Ctx{}
		}
		byG[g][m] = append(byG[g][m], c)
	}
	for _, ms := range byG {
		for m, cs := range ms {
			slices.Sort(cs)
			ms[m] = slices.Compact(cs)
		}
	}
	return func(g uint32) func(m uint32) []pointsto.Ctx {
		ms, ok := byG[g]
		if !ok {
			return nil
		}
		return func(m uint32) []pointsto.Ctx { return ms[m] }
	}
}

// countPairs counts the distinct access pairs.
func countPairs(pairs []pair) int {
	seen := map[[2]uint32]bool{}
	for _, p := range pairs {
		seen[p.e] = true
	}
	return len(seen)
}

func accessPairs(pairs []pair) [][2]uint32 {
	seen := map[[2]uint32]bool{}
	var out [][2]uint32
	for _, p := range pairs {
		if !seen[p.e] {
			seen[p.e] = true
			out = append(out, p.e)
		}
	}
	return out
}

// originalPairs counts the pairs of accesses to the same field (or
// element, map contents, global, type of object) of any objects, at least
// one a write: Chord's original pairs, before aliasing asks for the same
// object.
func originalPairs(r *pointsto.Result, locs map[pointsto.Ctx][]location) int {
	f := r.Facts
	byField := map[string]map[uint32]bool{} // key -> access -> writes
	for o, l := range locs {
		site := f.Site(r.Contexts.Site(o))
		var key string
		switch site.Kind {
		case pointsto.SiteSub:
			key = fmt.Sprint("field ", site.Field)
		case pointsto.SiteGlobal:
			key = fmt.Sprint("global ", r.Contexts.Site(o))
		case pointsto.SiteClosure, pointsto.SiteFunc, pointsto.SiteUnknown, pointsto.SiteParam:
			key = fmt.Sprint("site ", r.Contexts.Site(o))
		default:
			key = "object " + types.TypeString(site.Type, nil)
		}
		if byField[key] == nil {
			byField[key] = map[uint32]bool{}
		}
		for _, x := range l {
			byField[key][x.e] = byField[key][x.e] || x.write
		}
	}
	n := 0
	for _, es := range byField {
		total, writes := len(es), 0
		for _, w := range es {
			if w {
				writes++
			}
		}
		reads := total - writes
		n += total*(total+1)/2 - reads*(reads+1)/2
	}
	return n
}

// group turns the remaining pairs into races, one per access pair.
func group(pairs []pair, acc *accessInfo) []Race {
	// Per race, the goroutine pair lists of its pairs (one per shared id)
	// and the goroutines of each access, as bits; the races' lists are
	// made once all are in. Most races have one list: sorted and without
	// duplicates (parallel makes it so, the stages after only delete), so
	// it is the race's own. The goroutine pairs are the bulk of a report
	// (bbolt's tests: 45 M), so neither is copied where it need not be.
	type grouped struct {
		race  *Race
		lists [][][2]uint32
		gs    [2]bitset.BitSet
	}
	byPair := map[[2]uint32]*grouped{}
	listed := map[int]bool{} // the shared ids whose goroutine pairs are in
	var keys [][2]uint32
	for _, p := range pairs {
		gr := byPair[p.e]
		if gr == nil {
			gr = &grouped{race: &Race{}}
			for k := range 2 {
				e := p.e[k]
				gr.race.Accesses[k] = Access{E: e, Atomic: acc.atomic.Test(uint(e))}
			}
			byPair[p.e] = gr
			keys = append(keys, p.e)
		}
		race := gr.race
		for k := range 2 {
			race.Accesses[k].Write = race.Accesses[k].Write || p.write[k]
		}
		race.Locations = append(race.Locations, p.o)
		if listed[p.shared] {
			continue // the same goroutine pairs as another location's
		}
		listed[p.shared] = true
		gr.lists = append(gr.lists, p.gp)
		for _, gp := range p.gp {
			for k := range 2 {
				gr.gs[k].Set(uint(gp[k]))
			}
		}
	}
	slices.SortFunc(keys, comparePairs)
	out := make([]Race, 0, len(keys))
	for _, k := range keys {
		gr := byPair[k]
		race := gr.race
		for i := range race.Accesses {
			race.Accesses[i].Goroutines = make([]uint32, 0, gr.gs[i].Count())
			for g := range gr.gs[i].EachSet() {
				race.Accesses[i].Goroutines = append(race.Accesses[i].Goroutines, uint32(g))
			}
		}
		slices.Sort(race.Locations)
		race.Locations = slices.Compact(race.Locations)
		if len(gr.lists) == 1 {
			race.Pairs = gr.lists[0]
		} else {
			race.Pairs = slices.Concat(gr.lists...)
		}
		if !slices.IsSortedFunc(race.Pairs, comparePairs) {
			slices.SortFunc(race.Pairs, comparePairs)
		}
		race.Pairs = slices.Compact(race.Pairs)
		out = append(out, *race)
	}
	return out
}

func comparePairs(a, b [2]uint32) int {
	return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
}
