package mhp

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// published reports whether accesses a and b, if they touch one location,
// are ordered because its object is published by an atomic store: one
// access is made before the object is published (beforePublish) and the
// other also, or through a value an atomic load returned (afterLoad),
//
//	func (m *Map) Store(k, v any) {
//		m.mu.Lock()
//		dirty := m.copy()       // a fresh map, written only in copy and here
//		dirty[k] = v            // a
//		m.clean.Store(dirty)    // atomic.Value: publishes it
//		m.mu.Unlock()
//	}
//	func (m *Map) Load(k any) any {
//		clean, _ := m.clean.Load().(map[any]any)
//		return clean[k]         // b
//	}
//
// Why this holds. A concrete object o accessed before publication is
// allocated in one activation (or in a callee that returns it fresh to
// that activation), and until its publication no pointer to it leaves
// that activation: its value is only accessed, returned (by the callee),
// or handed to an atomic store, and the access is not reachable from the
// store. So the accesses to o before its publication run in one goroutine,
// one after the other: two such accesses to one object are ordered. After
// the publication, a goroutine reaches o through a value that an atomic
// load returned. Every atomic store of an object of o's type stores a
// fresh value published this way or a value that an atomic load returned
// (dirtyStores): by induction on the order of atomic operations (the Go
// memory model makes them sequentially consistent), every store of o comes
// after o's first publication, and the load synchronizes with the store
// it reads from. So the first publication happens before the load, and
// the access before the publication happens before the access after the
// load. Two accesses after loads are not ordered by this (a write after a
// load races with a read after another).
func (o *Order) published(a, b ssa.Instruction) bool {
	pa, pb := o.beforePublish(a), o.beforePublish(b)
	return pa && (pb || o.afterLoad(b)) || pb && o.afterLoad(a)
}

// beforePublish reports whether access x is made through a value that
// holds a fresh object in its activation, before that object may be
// published (see published).
func (o *Order) beforePublish(x ssa.Instruction) bool {
	v, ok := accessBase(x)
	if !ok || inRecover(x) {
		return false
	}
	switch v := v.(type) {
	case *ssa.Alloc, *ssa.MakeMap:
		// Allocated here, or returned fresh (returnsFresh: then no store
		// publishes it here).
	case *ssa.Call:
		if callee := v.Call.StaticCallee(); callee == nil || v.Call.IsInvoke() || !o.returnsFresh(callee) {
			return false
		}
	default:
		return false
	}
	stores, returned, ok := confined(v)
	if !ok || returned && !o.returnsFresh(v.Parent()) {
		return false
	}
	return !slices.ContainsFunc(stores, func(st ssa.Instruction) bool { return reachable(st, x) })
}

// returnsFresh reports whether every call of fn gets an object fn has just
// allocated and keeps no pointer to, and keeps it to itself until it
// publishes it: fn has one result, every return returns an allocation of
// fn that is otherwise only accessed, and every call of fn is a plain
// static call whose caller does the same with the result.
func (o *Order) returnsFresh(fn *ssa.Function) bool {
	if fresh, ok := o.freshFns[fn]; ok {
		return fresh
	}
	fresh := o.findReturnsFresh(fn)
	o.freshFns[fn] = fresh
	return fresh
}

func (o *Order) findReturnsFresh(fn *ssa.Function) bool {
	m, ok := o.f.FuncID(fn)
	if !ok || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		switch r := ret.Results[0].(type) {
		case *ssa.Alloc, *ssa.MakeMap:
			if stores, _, ok := confined(r); !ok || len(stores) > 0 {
				return false
			}
		default:
			return false
		}
	}
	sites := o.callSitesOf(m)
	for _, i := range sites {
		call, ok := o.f.Call(i).(*ssa.Call)
		if !ok || call.Call.IsInvoke() || call.Call.StaticCallee() != fn {
			return false
		}
		if _, returned, ok := confined(call); !ok || returned {
			return false
		}
	}
	return len(sites) > 0
}

// confined reports whether value v, an object of its function's own, is
// only accessed (loads and stores through its field addresses, map
// operations on it), returned, or handed to atomic stores (directly or
// through an interface made for them); it gives those stores and whether
// v is returned.
func confined(v ssa.Value) (stores []ssa.Instruction, returned bool, ok bool) {
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.FieldAddr:
				if !walk(r) {
					return false
				}
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.Store:
				if r.Val == v {
					return false
				}
			case *ssa.MapUpdate:
				if r.Key == v || r.Value == v {
					return false
				}
			case *ssa.Lookup:
				if r.Index == v {
					return false
				}
			case *ssa.Range:
			case *ssa.Return:
				returned = true
			case *ssa.MakeInterface:
				for _, use := range *r.Referrers() {
					if _, ok := use.(*ssa.DebugRef); ok {
						continue
					}
					if !storesValue(use, r) {
						return false
					}
					stores = append(stores, use)
				}
			case *ssa.Call:
				switch {
				case mapBuiltin(r) && r.Call.Args[0] == v:
				case storesValue(r, v):
					stores = append(stores, r)
				default:
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	ok = walk(v)
	return stores, returned, ok
}

// reachable reports whether instruction to may run after instruction from
// in one activation of their function: later in from's block, or in a
// block some path of one or more edges leads to.
func reachable(from, to ssa.Instruction) bool {
	instrs := from.Block().Instrs
	if from.Block() == to.Block() && slices.Index(instrs, from) <= slices.Index(instrs, to) {
		return true
	}
	return slices.ContainsFunc(from.Block().Succs, func(s *ssa.BasicBlock) bool {
		return pointsto.ReachesAvoiding(s, to.Block(), nil)
	})
}

// afterLoad reports whether access x is made through a value that an
// atomic load returned, when every atomic store of an object of that
// value's type stores a fresh object or one an atomic load returned
// (dirtyStores).
func (o *Order) afterLoad(x ssa.Instruction) bool {
	v, ok := accessBase(x)
	if !ok || !fromLoad(v) {
		return false
	}
	dirty := o.dirtyStores()
	if dirty.any {
		return false
	}
	t := objectType(v.Type())
	return !slices.ContainsFunc(dirty.types, func(d types.Type) bool { return types.Identical(d, t) })
}

// objectType is the type of the object a value of type t refers to: a
// pointer's element type, or t itself (a map, a channel).
func objectType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// dirtyPublish lists the types of the objects that atomic stores may store
// other than as published wants (neither fresh nor loaded); any means that
// such a store may store an object we cannot type.
type dirtyPublish struct {
	types []types.Type
	any   bool
}

// dirtyStores returns, once, the types of the objects that atomic stores
// of the program store other than as a fresh object confined to its
// activation until then (beforePublish's kind) or a value an atomic load
// returned: the stored value's type, or for a value of interface type the
// types of the objects it may point to.
func (o *Order) dirtyStores() *dirtyPublish {
	if o.dirty != nil {
		return o.dirty
	}
	o.dirty = &dirtyPublish{}
	typed := map[ssa.Value]bool{} // stored values of interface type, typed through points-to
	for i := range o.f.Size(pointsto.DomI) {
		call := o.f.Call(uint32(i))
		if !o.f.Live(call.Block()) || len(o.gs.Of(o.f.Caller(uint32(i)))) == 0 {
			continue // no goroutine of this program runs it
		}
		k, ok := storeArg(call)
		if !ok {
			if call.Common().StaticCallee() == nil && slices.ContainsFunc(o.callees(uint32(i)), o.isAtomicStore) {
				o.dirty.any = true // a store through an interface or a func value: its value is not looked at
			}
			continue
		}
		val := call.Common().Args[k]
		if mi, ok := val.(*ssa.MakeInterface); ok {
			val = mi.X
		}
		if fromLoad(val) || o.storedFresh(val, call) {
			continue
		}
		if types.IsInterface(val.Type()) {
			typed[val] = true
			continue
		}
		o.dirty.types = append(o.dirty.types, objectType(val.Type()))
	}
	if len(typed) > 0 {
		o.typeThroughPointsTo(typed)
	}
	return o.dirty
}

// typeThroughPointsTo adds to o.dirty the types of the objects that the
// values of typed may point to, in any context; a value without a V id
// (not extracted) may hold anything.
func (o *Order) typeThroughPointsTo(typed map[ssa.Value]bool) {
	ids := map[uint32]bool{}
	for v := range o.f.Size(pointsto.DomV) {
		if val := o.f.Value(uint32(v)); typed[val] {
			ids[uint32(v)] = true
			delete(typed, val)
		}
	}
	if len(typed) > 0 {
		o.dirty.any = true
		return
	}
	sites := map[uint32]bool{}
	for t := range o.res.Tuples("pt") {
		if ids[t[1]] {
			sites[o.res.Contexts.Site(t[2])] = true
		}
	}
	for h := range sites {
		if t := o.f.Site(h).Type; t != nil {
			o.dirty.types = append(o.dirty.types, t)
		} else {
			o.dirty.any = true
		}
	}
}

// storedFresh reports whether val, stored by atomic store st, is a fresh
// object its activation keeps to itself until it publishes it.
func (o *Order) storedFresh(val ssa.Value, st ssa.CallInstruction) bool {
	switch v := val.(type) {
	case *ssa.Alloc, *ssa.MakeMap:
		_, returned, ok := confined(v)
		return ok && !returned
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		return callee != nil && !v.Call.IsInvoke() && o.returnsFresh(callee)
	}
	return false
}

// fromLoad reports whether v is the result of an atomic load (Load or Swap
// of a sync/atomic Value or Pointer), seen through type assertions (not
// conversions: v's type is then the stored value's, which dirtyStores
// compares).
func fromLoad(v ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.Extract:
			ta, ok := x.Tuple.(*ssa.TypeAssert)
			if !ok || x.Index != 0 {
				return false
			}
			v = ta.X
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.Call:
			if x.Call.IsInvoke() {
				return false
			}
			recv, name, ok := atomicMethod(x.Call.StaticCallee())
			return ok && (recv == "Value" || recv == "Pointer") && (name == "Load" || name == "Swap")
		default:
			return false
		}
	}
}

// storesValue reports whether call stores v into an atomic Value or
// Pointer (Store, Swap, CompareAndSwap's new value).
func storesValue(instr ssa.Instruction, v ssa.Value) bool {
	call, ok := instr.(*ssa.Call) // a deferred store runs after what follows it
	if !ok {
		return false
	}
	k, ok := storeArg(call)
	return ok && call.Common().Args[k] == v && !slices.Contains(call.Common().Args[:k], v)
}

// storeArg returns the index of the argument that call (a call, go or
// defer statement) stores into an atomic Value or Pointer, when it calls
// the store statically.
func storeArg(call ssa.CallInstruction) (int, bool) {
	if call.Common().IsInvoke() {
		return 0, false
	}
	return atomicStoreArg(call.Common().StaticCallee())
}

// atomicStoreArg returns the index of the argument that fn stores, when fn
// is Store, Swap or CompareAndSwap of an atomic Value or Pointer.
func atomicStoreArg(fn *ssa.Function) (int, bool) {
	recv, name, ok := atomicMethod(fn)
	if !ok || recv != "Value" && recv != "Pointer" {
		return 0, false
	}
	switch name {
	case "Store", "Swap":
		return 1, true
	case "CompareAndSwap":
		return 2, true
	}
	return 0, false
}

// isAtomicStore reports whether function m is an atomic store (atomicStoreArg).
func (o *Order) isAtomicStore(m uint32) bool {
	_, ok := atomicStoreArg(o.f.Func(m))
	return ok
}

// atomicMethod returns the receiver type's name and the method's name when
// fn is a method of a sync/atomic type.
func atomicMethod(fn *ssa.Function) (recv, name string, ok bool) {
	if fn == nil || fn.Signature.Recv() == nil {
		return "", "", false
	}
	t := fn.Signature.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync/atomic" {
		return "", "", false
	}
	return named.Obj().Name(), fn.Name(), true
}

// accessBase returns the value whose object holds the location access x
// touches: the map of a map operation, or the pointer that a load's or
// store's address is reached from through field addresses.
func accessBase(x ssa.Instruction) (ssa.Value, bool) {
	switch x := x.(type) {
	case *ssa.MapUpdate:
		return x.Map, true
	case *ssa.Lookup:
		if _, ok := x.X.Type().Underlying().(*types.Map); ok {
			return x.X, true
		}
	case *ssa.Range:
		if _, ok := x.X.Type().Underlying().(*types.Map); ok {
			return x.X, true
		}
	case *ssa.Call:
		if mapBuiltin(x) {
			return x.Call.Args[0], true
		}
	case *ssa.Store, *ssa.UnOp:
		return accessRoot(x)
	}
	return nil, false
}

// mapBuiltin reports whether call is len, delete or clear of a map.
func mapBuiltin(call *ssa.Call) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	if !ok || len(call.Call.Args) == 0 {
		return false
	}
	switch b.Name() {
	case "len", "delete", "clear":
		_, isMap := call.Call.Args[0].Type().Underlying().(*types.Map)
		return isMap
	}
	return false
}
