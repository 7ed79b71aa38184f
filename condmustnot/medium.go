package condmustnot

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// mediumAccess is an access (instance x) that reaches its location inside
// the object c refers to, c = *(&b.f), while it holds locks on fields of b.
type mediumAccess struct {
	x, c, f uint32        // the instance, V of c, F of f
	locks   [][2]uint32   // each held &b.g: its V, and g's F
	base    *types.Struct // the struct b points to
}

// medium gives the medium-grained rule of condmustnot.dl its facts for
// instances xs, whose pointers (read, write, mapRead, mapWrite) ptrs gives by E:
// the tuples of medium, accObj, objSite, fieldStore, ownerStore and copied
// by relation name (condmustnot.dl says what they mean).
func (l *Locksets) medium(insts []Instance, xs []uint32, ptrs map[uint32][]uint32) map[string][][]uint32 {
	out := map[string][][]uint32{}
	var accs []mediumAccess
	for _, x := range xs {
		if e := insts[x].E; len(ptrs[e]) == 1 {
			if a, ok := l.mediumAccess(x, insts[x].Held, ptrs[e][0]); ok {
				accs = append(accs, a)
			}
		}
	}
	if len(accs) == 0 {
		return out
	}
	f, ctxs := l.facts, l.res.Contexts
	fields := map[uint32]*types.Struct{} // the fields f of the accesses, with their struct types
	cs := bitset.New(uint(f.Size(pointsto.DomV)))
	for _, a := range accs {
		fields[a.f] = a.base
		cs.Set(uint(a.c))
	}

	// The objects each c may point to (in any context); and the stores
	// whose pointer may point to a location of one of fields, with the
	// context: the store may write that field of some object.
	ptrs0, froms := bitset.New(uint(f.Size(pointsto.DomV))), bitset.New(uint(f.Size(pointsto.DomV)))
	arity, stores := f.Flat("store")
	for k := 0; k < len(stores); k += arity {
		ptrs0.Set(uint(stores[k]))
	}
	objsOf := map[uint32][]pointsto.Ctx{}
	type ctxField struct{ c, f uint32 }
	hits := map[uint32][]ctxField{} // store pointer -> contexts and fields it may write
	hit := map[[3]uint32]bool{}
	for t := range l.res.Tuples("pt") {
		c, v, o := t[0], t[1], t[2]
		if cs.Test(uint(v)) {
			objsOf[v] = append(objsOf[v], o)
		}
		if ptrs0.Test(uint(v)) {
			if s := f.Site(ctxs.Site(o)); s.Kind == pointsto.SiteSub && fields[s.Field] != nil && !hit[[3]uint32{v, c, s.Field}] {
				hit[[3]uint32{v, c, s.Field}] = true
				hits[v] = append(hits[v], ctxField{c, s.Field})
			}
		}
	}
	// An access counts only if c points to root objects, never into one
	// (&y.inner): then c refers to the object x its location lies in.
	roots := map[uint32]bool{} // the sites of the objects the c's may point to
	for _, a := range accs {
		objs := slices.Compact(slices.Sorted(slices.Values(objsOf[a.c])))
		if len(objs) == 0 || slices.ContainsFunc(objs, func(o pointsto.Ctx) bool { return f.Site(ctxs.Site(o)).Kind == pointsto.SiteSub }) {
			continue
		}
		for _, o := range objs {
			out["accObj"] = append(out["accObj"], []uint32{a.x, o})
			out["objSite"] = append(out["objSite"], []uint32{o, ctxs.Site(o)})
			roots[ctxs.Site(o)] = true
		}
		for _, lock := range a.locks {
			out["medium"] = append(out["medium"], []uint32{a.x, lock[0], a.f, lock[1]})
		}
	}

	// The stores that may write into a location of one of fields a pointer
	// into an object of one of roots (the object or a location inside it),
	// in the same context.
	for k := 0; k < len(stores); k += arity {
		if len(hits[stores[k]]) > 0 {
			froms.Set(uint(stores[k+1]))
		}
	}
	carries := map[[2]uint32][]uint32{} // (context, value) -> root sites of its objects among roots
	for t := range l.res.Tuples("pt") {
		if c, v, o := t[0], t[1], t[2]; froms.Test(uint(v)) {
			if h := f.Site(ctxs.Site(o)).Root; roots[h] && !slices.Contains(carries[[2]uint32{c, v}], h) {
				carries[[2]uint32{c, v}] = append(carries[[2]uint32{c, v}], h)
			}
		}
	}
	seen := map[[3]uint32]bool{}
	args := &argFlow{f: f, r: l.res}
	for k := 0; k < len(stores); k += arity {
		w := uint32(k / arity)
		for _, hit := range hits[stores[k]] {
			for _, h := range carries[[2]uint32{hit.c, stores[k+1]}] {
				if t := [3]uint32{w, hit.f, h}; !seen[t] {
					seen[t] = true
					out["fieldStore"] = append(out["fieldStore"], t[:])
					if l.ownerStore(stores[k], stores[k+1], h, args) {
						out["ownerStore"] = append(out["ownerStore"], []uint32{w, h})
					}
				}
			}
		}
	}
	// The fields whose struct some copy of a whole value may copy.
	copies := l.copiedTypes()
	for fid, s := range fields {
		memo := map[types.Type]bool{}
		if slices.ContainsFunc(copies, func(t types.Type) bool { return holdsStruct(t, s, memo) }) {
			out["copied"] = append(out["copied"], []uint32{fid})
		}
	}
	return out
}

// mediumAccess recognizes an access through pointer p, instance inst
// holding held, as a medium-grained one: p is c or an address inside the object c
// refers to (&c.x, &c[i], and chains of them), c = *(&b.f), and it holds
// locks &b.g on the same SSA value b. A chain through a load (c.items[i], a slice loaded from c) is a
// path of two fields and is left out.
func (l *Locksets) mediumAccess(inst uint32, held []Held, p uint32) (mediumAccess, bool) {
	f := l.facts
	c := p
	for x := addrBase(f.Value(c)); x != nil; x = addrBase(f.Value(c)) {
		t, ok := tupleOf(f, "fieldAddr", c)
		if !ok || f.Value(t[1]) != x {
			return mediumAccess{}, false
		}
		c = t[1]
	}
	load, ok := f.Value(c).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return mediumAccess{}, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return mediumAccess{}, false
	}
	t, ok := tupleOf(f, "load", c)
	if !ok || f.Value(t[1]) != fa {
		return mediumAccess{}, false
	}
	field, ok := tupleOf(f, "fieldAddr", t[1])
	ptr, ok2 := fa.X.Type().Underlying().(*types.Pointer)
	if !ok || !ok2 {
		return mediumAccess{}, false
	}
	base, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return mediumAccess{}, false
	}
	a := mediumAccess{x: inst, c: c, f: field[2], base: base}
	for _, h := range held {
		if x, g, ok := lockAddr(f, l.flow.nV, l.flow.entryLocks, h.Ptr); ok && x == field[1] {
			a.locks = append(a.locks, [2]uint32{h.Ptr, g})
		}
	}
	return a, len(a.locks) > 0
}

// addrBase returns the pointer or slice that address v is computed from
// (&x.f, &x[i]), or nil.
func addrBase(v ssa.Value) ssa.Value {
	switch a := v.(type) {
	case *ssa.FieldAddr:
		return a.X
	case *ssa.IndexAddr:
		return a.X
	}
	return nil
}

// ownerStore reports whether store(ptr, from) is one Store instruction that
// writes into *ptr a new object of site h at most once per object: the
// Store is the only instruction that uses both ptr and from, and either
// from is the allocation of h (a heap Alloc, a MakeMap or a MakeSlice) or
// a slice of it, and no way from the Store back to itself avoids the
// allocation (so between two runs of the Store, the allocation made a new
// object); or from is a parameter that each object of h reaches at most
// once over a run (args.once), and the Store runs at most once per call.
func (l *Locksets) ownerStore(ptr, from, h uint32, args *argFlow) bool {
	f := l.facts
	p, v := f.Value(ptr), f.Value(from)
	store := soleStore(p, v)
	if store == nil {
		return false
	}
	if param, ok := v.(*ssa.Parameter); ok {
		return !f.Repeats(store.Block()) && args.once(param, h)
	}
	if !isAllocOf(f, v, h) {
		return false
	}
	ab, sb := allocOf(v).(ssa.Instruction).Block(), store.Block()
	if ab == sb {
		return true // the allocation runs before the Store in its block
	}
	if !ab.Dominates(sb) {
		return false
	}
	for _, s := range sb.Succs {
		if pointsto.ReachesAvoiding(s, sb, ab) {
			return false
		}
	}
	return true
}

// soleStore returns the Store of v into *p, if it is the only instruction
// that uses both.
func soleStore(p, v ssa.Value) *ssa.Store {
	if p.Referrers() == nil {
		return nil
	}
	var store *ssa.Store
	for _, instr := range *p.Referrers() {
		if slices.ContainsFunc(instr.Operands(nil), func(x *ssa.Value) bool { return *x == v }) {
			s, ok := instr.(*ssa.Store)
			if !ok || store != nil || s.Addr != p || s.Val != v {
				return nil
			}
			store = s
		}
	}
	return store
}

// allocOf returns the value v slices (s[i:j]), or v.
func allocOf(v ssa.Value) ssa.Value {
	if s, ok := v.(*ssa.Slice); ok {
		return s.X
	}
	return v
}

// isAllocOf reports whether v is the result of allocation site h, or a
// slice of it, where h makes a new object at each run: a heap Alloc (a
// local's address is the same at every run), a MakeMap or a MakeSlice.
func isAllocOf(f *pointsto.Facts, v ssa.Value, h uint32) bool {
	switch a := allocOf(v).(type) {
	case *ssa.Alloc:
		if !a.Heap {
			return false
		}
	case *ssa.MakeMap, *ssa.MakeSlice:
	default:
		return false
	}
	return f.Site(h).Value == allocOf(v)
}

// argFlow tells whether the objects of an allocation site reach a
// function's parameter at most once each over a run (a constructor that
// stores what its caller allocated for it: newCache(m) storing m). It reads
// the call graph and the points-to of arguments on first use.
type argFlow struct {
	f       *pointsto.Facts
	r       *pointsto.Result
	callers map[uint32][]uint32  // M -> the call sites that may call it
	actual  map[[2]uint32]uint32 // (I, parameter index) -> the argument's V
	sites   map[uint32][]uint32  // argument V -> the root sites of the objects it may point to (or into)
	memo    map[paramSite]argFlowMemo
}

type paramSite struct {
	p *ssa.Parameter
	h uint32
}

type argFlowMemo uint8

const (
	argFlowVisiting argFlowMemo = iota + 1
	argFlowOnce
	argFlowNot
)

func (a *argFlow) init() {
	f, r := a.f, a.r
	a.callers, a.actual, a.sites, a.memo = map[uint32][]uint32{}, map[[2]uint32]uint32{}, map[uint32][]uint32{}, map[paramSite]argFlowMemo{}
	for i, ms := range r.CallGraph() {
		for _, m := range ms {
			a.callers[m] = append(a.callers[m], i)
		}
	}
	args := bitset.New(uint(f.Size(pointsto.DomV)))
	for _, t := range f.Tuples("actual") {
		a.actual[[2]uint32{t[0], t[1]}] = t[2]
		args.Set(uint(t[2]))
	}
	for t := range r.Tuples("pt") {
		if v := t[1]; args.Test(uint(v)) {
			if h := f.Site(r.Contexts.Site(t[2])).Root; !slices.Contains(a.sites[v], h) {
				a.sites[v] = append(a.sites[v], h)
			}
		}
	}
}

// once reports whether each object of site h reaches parameter p at most
// once over a run. It does when exactly one call site i may pass an object
// of h as p (a call the call graph knows, through a function value or an
// interface too), i runs at most once per call of its function, and i's
// argument is either the result of allocation h in i's function (each
// call allocates a new object and passes it once) or a parameter of i's
// function that h's objects reach at most once (each object arrives in one
// call, and leaves it once). A parameter of a function that is called in
// a cycle of such arguments is never once: the recursion is cut there
// (argFlowVisiting), so every answer rests on a finite chain of calls that
// ends at an allocation.
func (a *argFlow) once(p *ssa.Parameter, h uint32) bool {
	if a.memo == nil {
		a.init()
	}
	m, ok := a.f.FuncID(p.Parent())
	if !ok {
		return false
	}
	key := paramSite{p, h}
	switch a.memo[key] {
	case argFlowOnce:
		return true
	case argFlowNot, argFlowVisiting:
		return false
	}
	a.memo[key] = argFlowVisiting
	ok = a.onceThrough(m, uint32(slices.Index(p.Parent().Params, p)), h)
	a.memo[key] = argFlowNot
	if ok {
		a.memo[key] = argFlowOnce
	}
	return ok
}

func (a *argFlow) onceThrough(m, z, h uint32) bool {
	var from []uint32 // the call sites that may pass an object of h as parameter z
	for _, i := range a.callers[m] {
		if v, ok := a.actual[[2]uint32{i, z}]; ok && slices.Contains(a.sites[v], h) {
			from = append(from, i)
		}
	}
	if len(from) != 1 {
		return false
	}
	call := a.f.Call(from[0])
	if a.f.Repeats(call.Block()) {
		return false
	}
	arg := a.f.Value(a.actual[[2]uint32{from[0], z}])
	if param, ok := arg.(*ssa.Parameter); ok {
		return a.once(param, h)
	}
	return isAllocOf(a.f, arg, h) && allocOf(arg).Parent() == call.Parent()
}

// copiedTypes returns the types of the values that copies of whole values
// (copyLoad, copyStore, copyContents: a struct or array loaded, stored,
// boxed into an interface, copied by copy or append) copy, each once; for
// copy and append, the slices' element types.
func (l *Locksets) copiedTypes() []types.Type {
	f := l.facts
	seen := map[types.Type]bool{}
	var out []types.Type
	for _, rel := range []struct {
		name string
		col  int // the copied value
	}{{"copyLoad", 0}, {"copyStore", 1}, {"copyContents", 1}} {
		arity, data := f.Flat(rel.name)
		for k := 0; k < len(data); k += arity {
			typ := f.Value(data[k+rel.col]).Type()
			if sl, ok := typ.Underlying().(*types.Slice); ok {
				typ = sl.Elem()
			}
			if !seen[typ] {
				seen[typ] = true
				out = append(out, typ)
			}
		}
	}
	return out
}

// holdsStruct reports whether a value of type t holds a struct of type s
// in place: t is s, or a struct or array with a field or element that
// holds one.
func holdsStruct(t types.Type, s *types.Struct, memo map[types.Type]bool) bool {
	if r, ok := memo[t]; ok {
		return r
	}
	memo[t] = false // a cycle goes through a pointer, slice or map: no struct in place
	var r bool
	switch u := t.Underlying().(type) {
	case *types.Struct:
		r = types.Identical(u, s)
		for i := 0; i < u.NumFields() && !r; i++ {
			r = holdsStruct(u.Field(i).Type(), s, memo)
		}
	case *types.Array:
		r = holdsStruct(u.Elem(), s, memo)
	}
	memo[t] = r
	return r
}

// tupleOf returns the tuple of fact relation rel whose first column is k
// (the facts are sorted; the first column is a key for fieldAddr and load).
func tupleOf(f *pointsto.Facts, rel string, k uint32) ([]uint32, bool) {
	arity, data := f.Flat(rel)
	if arity == 0 {
		return nil, false
	}
	n := len(data) / arity
	i := sort.Search(n, func(i int) bool { return data[i*arity] >= k })
	if i < n && data[i*arity] == k {
		return data[i*arity : (i+1)*arity], true
	}
	return nil, false
}
