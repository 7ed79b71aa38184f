package pointsto

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/callgraph/rta"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

type fieldKey struct {
	sid int32 // canonical struct id (types.Identical)
	idx int32 // field index
}

type extractor struct {
	f    *Facts
	prog *ssa.Program
	tc   *typeClass

	models []model // by M id

	local  map[ssa.Value]uint32 // V ids of the current function's values
	global map[ssa.Value]uint32 // V ids of Globals and Functions used as values
	// unevaluated: the positions of the current function's range
	// expressions that Go does not evaluate (see unevaluatedRanges).
	unevaluated map[token.Pos]bool

	structMap   typeutil.Map // *types.Struct -> int32 sid
	structCache map[*types.Struct]int32
	nstruct     int32
	fieldIDs    map[fieldKey]uint32

	typeMap   typeutil.Map // types.Type -> uint32 T id
	typeCache map[types.Type]uint32
	nameIDs   map[string]uint32

	fieldHType []uint32              // by F id: see addrHType
	elemHType  map[types.Type]uint32 // by element type: see addrHType
	msetLen    map[types.Type]int

	maxZ uint32

	asserts []assertion // type assertions, for assertType (see assertTypes)
}

// assertion is a type assertion to = X.(typ) with V ids.
type assertion struct {
	to  uint32
	typ types.Type
}

// isTree reports whether values of type t are value trees: structs and
// arrays that carry pointers.
func (x *extractor) isTree(t types.Type) bool {
	return isAggregate(t) && x.tc.carriesPointers(t)
}

// Extract computes the domains and base relations of a loaded program.
func Extract(p *Program) (f *Facts, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("pointsto: internal error: %v\n%s", r, debug.Stack())
		}
	}()
	hasher := typeutil.MakeHasher()
	x := &extractor{
		f:           &Facts{Prog: p, funcID: make(map[*ssa.Function]uint32), byInstr: &accessIndex{}},
		prog:        p.SSA,
		tc:          newTypeClass(),
		local:       make(map[ssa.Value]uint32),
		global:      make(map[ssa.Value]uint32),
		structCache: make(map[*types.Struct]int32),
		fieldIDs:    make(map[fieldKey]uint32),
		typeCache:   make(map[types.Type]uint32),
		nameIDs:     make(map[string]uint32),
		elemHType:   make(map[types.Type]uint32),
		msetLen:     make(map[types.Type]int),
	}
	x.structMap.SetHasher(hasher)
	x.typeMap.SetHasher(hasher)
	for r := range numRels {
		x.f.rels[r].arity = len(relInfos[r].cols)
	}

	t := time.Now()
	x.reach()
	x.f.Stats.ReachTime = time.Since(t)

	t = time.Now()
	x.collectFields()
	x.f.Stats.FieldsTime = time.Since(t)

	t = time.Now()
	x.roots()
	for m, fn := range x.f.funcs {
		if !x.f.analyzed[m] {
			x.e1(rNoBody, uint32(m))
			continue
		}
		x.function(uint32(m), fn)
	}
	x.f.Stats.WalkTime = time.Since(t)

	t = time.Now()
	x.methods()
	x.f.Stats.MethodsTime = time.Since(t)

	t = time.Now()
	x.finish()
	x.f.Stats.SortTime = time.Since(t)
	return x.f, nil
}

// ---- reachability and the M domain ----

// isGenericBody reports whether fn is (inside) a generic function that is not
// an instance: such bodies never run, their instances do.
func isGenericBody(fn *ssa.Function) bool {
	top := fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	return top.TypeParams().Len() > 0 && len(top.TypeArgs()) == 0
}

// reach computes M: the functions RTA finds reachable from the roots and
// inits, plus (transitively) every function their code refers to.
func (x *extractor) reach() {
	p := x.f.Prog
	var roots []*ssa.Function
	seen := make(map[*ssa.Function]bool)
	add := func(fn *ssa.Function) {
		if fn != nil && !seen[fn] {
			seen[fn] = true
			roots = append(roots, fn)
		}
	}
	for _, r := range p.Roots {
		for _, init := range r.Inits {
			add(init)
		}
		add(r.Func)
	}
	if len(roots) == 0 {
		return
	}
	res := rta.Analyze(roots, false)
	// M: the reachable functions outside the runtime, closed under the
	// functions their code refers to; runtime functions they refer to are in M
	// but not analyzed (like functions without a body). Load builds no code
	// for the runtime, so what only the runtime's code calls is not in M:
	// it would not be reached, as the runtime's calls are not analyzed.
	set := make(map[*ssa.Function]bool, len(res.Reachable))
	var work []*ssa.Function
	addFn := func(g *ssa.Function) {
		if !set[g] && !isGenericBody(g) {
			set[g] = true
			if !IsRuntime(g) {
				work = append(work, g)
			}
		}
	}
	for fn := range res.Reachable {
		if !IsRuntime(fn) {
			addFn(fn)
		}
	}
	for _, fn := range roots {
		addFn(fn)
	}
	// go/ssa may make a bound-method or thunk wrapper more than once (per
	// package or per use): copies equal in name, package and position. A
	// copy is told apart by its first use (the least referring function's
	// name, then the place of the instruction in it), so that ids do not
	// depend on map order.
	firstUse := make(map[*ssa.Function]funcUse)
	var buf [32]*ssa.Value
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		name := ""
		for bi, b := range fn.Blocks {
			for ii, instr := range b.Instrs {
				for _, op := range instr.Operands(buf[:0]) {
					g, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					addFn(g)
					if g.Synthetic == "" {
						continue
					}
					if name == "" {
						name = fn.String()
					}
					u := funcUse{name, bi, ii}
					if r, ok := firstUse[g]; !ok || u.compare(r) < 0 {
						firstUse[g] = u
					}
				}
			}
		}
	}

	type keyed struct {
		srcKey
		fn   *ssa.Function
		name string
	}
	keys := make([]keyed, 0, len(set))
	for fn := range set {
		k := keyed{srcKey: srcKey{pkg: x.funcPkg(fn)}, fn: fn, name: fn.String()}
		if pos := fn.Pos(); pos.IsValid() {
			position := p.Fset.Position(pos)
			k.file, k.off = position.Filename, position.Offset
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if c := a.srcKey.compare(b.srcKey); c != 0 {
			return c
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Or(strings.Compare(a.fn.Synthetic, b.fn.Synthetic), firstUse[a.fn].compare(firstUse[b.fn]))
	})
	f := x.f
	f.funcs = make([]*ssa.Function, len(keys))
	x.models = make([]model, len(keys))
	f.analyzed = make([]bool, len(keys))
	for k, kf := range keys {
		f.funcs[k] = kf.fn
		f.funcID[kf.fn] = uint32(k)
		x.models[k] = modelOf(kf.fn)
		f.analyzed[k] = kf.fn.Blocks != nil && !IsRuntime(kf.fn)
		if !f.analyzed[k] {
			f.Stats.FuncsNoBody++
		}
	}
	f.Stats.Funcs = len(keys)
}

// funcTypesPkg returns the package a function belongs to (for instances and
// wrappers: the package of their origin or method), or nil.
func funcTypesPkg(fn *ssa.Function) *types.Package {
	for g := fn; g != nil; g = g.Parent() {
		if g.Pkg != nil {
			return g.Pkg.Pkg
		}
	}
	if o := fn.Origin(); o != nil && o.Pkg != nil {
		return o.Pkg.Pkg
	}
	if obj := fn.Object(); obj != nil {
		return obj.Pkg()
	}
	return nil
}

// IsRuntime reports whether fn belongs to the runtime proper (package
// runtime and internal/runtime/...): its code is not analyzed, and Load
// builds none (no Blocks, even where the source has a body).
func IsRuntime(fn *ssa.Function) bool {
	p := funcTypesPkg(fn)
	if p == nil {
		return false
	}
	return isRuntimePath(p.Path())
}

// isRuntimePath reports whether the package of this import path belongs
// to the runtime proper. Load builds no SSA code for it.
func isRuntimePath(path string) bool {
	return path == "runtime" || strings.HasPrefix(path, "internal/runtime/") || strings.HasPrefix(path, "runtime/internal/")
}

// funcPkg returns the package ID (path, and test variant) a function belongs to.
func (x *extractor) funcPkg(fn *ssa.Function) string {
	tp := funcTypesPkg(fn)
	if tp == nil {
		return ""
	}
	if pkg := x.f.Prog.PackageOf(tp); pkg != nil {
		return pkg.ID
	}
	return tp.Path()
}

// ---- fields ----

// structID returns the canonical id of a struct type (by types.Identical),
// creating one if create is set; -1 if there is none.
func (x *extractor) structID(st *types.Struct, create bool) int32 {
	if id, ok := x.structCache[st]; ok && (id >= 0 || !create) {
		return id
	}
	id := int32(-1)
	if v := x.structMap.At(st); v != nil {
		id = v.(int32)
	} else if create {
		id = x.nstruct
		x.nstruct++
		x.structMap.Set(st, id)
	}
	x.structCache[st] = id
	return id
}

func fieldAddrStruct(fa *ssa.FieldAddr) (types.Type, *types.Struct) {
	owner := pointerElem(fa.X.Type())
	st, _ := owner.Underlying().(*types.Struct)
	return owner, st
}

// srcKey is where a declaration is: ids of functions and fields are ordered
// by it first, so the same program gives the same ids.
type srcKey struct {
	pkg, file string
	off       int
}

func (a srcKey) compare(b srcKey) int {
	return cmp.Or(strings.Compare(a.pkg, b.pkg), strings.Compare(a.file, b.file), cmp.Compare(a.off, b.off))
}

// funcUse is the place of an instruction that refers to a function: the
// referring function's name, the block's index and the instruction's.
type funcUse struct {
	fn           string
	block, instr int
}

func (a funcUse) compare(b funcUse) int {
	return cmp.Or(strings.Compare(a.fn, b.fn), cmp.Compare(a.block, b.block), cmp.Compare(a.instr, b.instr))
}

// collectFields assigns F ids to the struct fields some FieldAddr addresses.
func (x *extractor) collectFields() {
	type cand struct {
		srcKey
		key   fieldKey
		info  fieldInfo
		owner string
	}
	var cands []cand
	seen := make(map[fieldKey]bool)
	for m, fn := range x.f.funcs {
		if !x.f.analyzed[m] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var owner types.Type
				var st *types.Struct
				var index int
				switch in := instr.(type) {
				case *ssa.FieldAddr:
					owner, st = fieldAddrStruct(in)
					index = in.Field
				case *ssa.Field:
					if !x.isTree(in.X.Type()) {
						continue
					}
					owner = in.X.Type()
					st, _ = owner.Underlying().(*types.Struct)
					index = in.Field
				default:
					continue
				}
				if st == nil {
					continue
				}
				k := fieldKey{x.structID(st, true), int32(index)}
				if seen[k] {
					continue
				}
				seen[k] = true
				v := st.Field(index)
				c := cand{key: k, info: fieldInfo{v: v, owner: owner}}
				if v.Pkg() != nil {
					c.pkg = v.Pkg().Path()
				}
				if v.Pos().IsValid() {
					p := x.f.Prog.Fset.Position(v.Pos())
					c.file, c.off = p.Filename, p.Offset
				}
				cands = append(cands, c)
			}
		}
	}
	for k := range cands {
		cands[k].owner = types.TypeString(cands[k].info.owner, nil)
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := a.srcKey.compare(b.srcKey); c != 0 {
			return c
		}
		if c := strings.Compare(a.owner, b.owner); c != 0 {
			return c
		}
		return cmp.Compare(a.key.idx, b.key.idx)
	})
	f := x.f
	f.fields = make([]fieldInfo, pseudoFields, pseudoFields+len(cands))
	for _, c := range cands {
		x.fieldIDs[c.key] = uint32(len(f.fields))
		f.fields = append(f.fields, c.info)
	}
	x.fieldHType = make([]uint32, len(f.fields))
}

// ---- emitting ----

func (x *extractor) e1(r rel, a uint32) {
	x.f.rels[r].data = append(x.f.rels[r].data, a)
}

func (x *extractor) e2(r rel, a, b uint32) {
	x.f.rels[r].data = append(x.f.rels[r].data, a, b)
}

func (x *extractor) e3(r rel, a, b, c uint32) {
	x.f.rels[r].data = append(x.f.rels[r].data, a, b, c)
}

func (x *extractor) z(n int) uint32 {
	z := uint32(n)
	if z > x.maxZ {
		x.maxZ = z
	}
	return z
}

func (x *extractor) typeID(t types.Type) uint32 {
	if id, ok := x.typeCache[t]; ok {
		return id
	}
	var id uint32
	if v := x.typeMap.At(t); v != nil {
		id = v.(uint32)
	} else {
		id = uint32(len(x.f.types))
		x.f.types = append(x.f.types, t)
		x.typeMap.Set(t, id)
	}
	x.typeCache[t] = id
	return id
}

func (x *extractor) nameID(fn *types.Func) uint32 {
	key := fn.Name()
	if !fn.Exported() && fn.Pkg() != nil {
		key = fn.Pkg().Path() + "." + key
	}
	return x.nameKeyID(key, true)
}

func (x *extractor) nameKeyID(key string, create bool) uint32 {
	if id, ok := x.nameIDs[key]; ok {
		return id
	}
	if !create {
		return NoID
	}
	id := uint32(len(x.f.names))
	x.f.names = append(x.f.names, key)
	x.nameIDs[key] = id
	return id
}

func (x *extractor) methodCount(t types.Type) int {
	if n, ok := x.msetLen[t]; ok {
		return n
	}
	n := x.prog.MethodSets.MethodSet(t).Len()
	x.msetLen[t] = n
	return n
}

// ---- values ----

// vid returns the V id of an operand.
func (x *extractor) vid(v ssa.Value) (uint32, bool) {
	switch v := v.(type) {
	case *ssa.Const, *ssa.Builtin, nil:
		return 0, false
	case *ssa.Global:
		return x.globalValue(v), true
	case *ssa.Function:
		return x.funcValue(v)
	}
	id, ok := x.local[v]
	return id, ok
}

func (x *extractor) newValue(v ssa.Value, m uint32) uint32 {
	f := x.f
	id := uint32(len(f.values))
	f.values = append(f.values, v)
	f.valueFn = append(f.valueFn, m)
	return id
}

func (x *extractor) localValue(v ssa.Value, m uint32) uint32 {
	id := x.newValue(v, m)
	x.local[v] = id
	x.e2(rVarFunc, id, m)
	return id
}

// globalValue returns the V id of a Global, creating it and its site.
func (x *extractor) globalValue(g *ssa.Global) uint32 {
	if id, ok := x.global[g]; ok {
		return id
	}
	id := x.newValue(g, NoID)
	x.global[g] = id
	h := x.rootSite(SiteGlobal, g, NoID, pointerElem(g.Type()), false, g.Type())
	x.e2(rAlloc, id, h)
	x.e1(rGlobal, h)
	return id
}

// funcValue returns the V id of a function used as a value, creating it and
// its function object.
func (x *extractor) funcValue(fn *ssa.Function) (uint32, bool) {
	if id, ok := x.global[fn]; ok {
		return id, true
	}
	m, ok := x.f.funcID[fn]
	if !ok {
		return 0, false // generic body: never a value in analyzed code
	}
	id := x.newValue(fn, NoID)
	x.global[fn] = id
	h := x.rootSite(SiteFunc, fn, NoID, nil, false, fn.Signature)
	x.e2(rAlloc, id, h)
	x.e1(rGlobal, h)
	x.e2(rFuncObj, h, m)
	return id, true
}

// ---- sites ----

func (x *extractor) newSite(s Site) uint32 {
	id := uint32(len(x.f.sites))
	if s.Kind != SiteSub {
		s.Root = id
		x.f.Stats.RootSites++
	}
	x.f.sites = append(x.f.sites, s)
	return id
}

// rootSite creates a root site and its sub-sites. typ is the object's type
// (elements' type if array); htype the dynamic type of the allocated value.
func (x *extractor) rootSite(kind SiteKind, val ssa.Value, m uint32, typ types.Type, array bool, htype types.Type) uint32 {
	h := x.newSite(Site{Kind: kind, Parent: NoID, Field: NoID, Value: val, Func: m, Type: typ, Array: array})
	if htype != nil {
		x.e2(rHType, h, x.typeID(htype))
	}
	if typ != nil && (kind != SiteBox || x.isTree(typ)) {
		x.subSites(h, h, typ, array)
	}
	return h
}

func (x *extractor) subSites(root, parent uint32, t types.Type, array bool) {
	if array {
		h := x.subSite(root, parent, FieldElem, t)
		x.subSites(root, h, t, false)
		return
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		sid := x.structID(u, false)
		if sid < 0 {
			return
		}
		for i := 0; i < u.NumFields(); i++ {
			fid, ok := x.fieldIDs[fieldKey{sid, int32(i)}]
			if !ok {
				continue
			}
			ft := u.Field(i).Type()
			h := x.subSite(root, parent, fid, ft)
			x.subSites(root, h, ft, false)
		}
	case *types.Array:
		h := x.subSite(root, parent, FieldElem, u.Elem())
		x.subSites(root, h, u.Elem(), false)
	case *types.Map:
		x.subSite(root, parent, FieldMapKey, nil)
		x.subSite(root, parent, FieldMapValue, nil)
	case *types.Chan:
		x.subSite(root, parent, FieldChan, nil)
	}
}

func (x *extractor) subSite(root, parent, field uint32, t types.Type) uint32 {
	rs := &x.f.sites[root]
	h := x.newSite(Site{Kind: SiteSub, Root: root, Parent: parent, Field: field, Value: rs.Value, Func: rs.Func, Type: t})
	x.e3(rSubSite, parent, field, h)
	if t != nil {
		if tid := x.addrHType(field, t); tid != NoID {
			x.e2(rHType, h, tid)
		}
	}
	return h
}

// addrHType returns the T id of *t, the type of the address of a field or
// element location, if *t has methods (else NoID: no dispatch can need it).
func (x *extractor) addrHType(field uint32, t types.Type) uint32 {
	// Caches hold id+2 (NoID+2 == 1); 0 means not computed.
	if field != FieldElem {
		if v := x.fieldHType[field]; v != 0 {
			return v - 2
		}
	} else if v, ok := x.elemHType[t]; ok {
		return v - 2
	}
	id := NoID
	if x.methodCount(t) > 0 || x.methodCount(types.NewPointer(t)) > 0 {
		id = x.typeID(types.NewPointer(t))
	}
	if field != FieldElem {
		x.fieldHType[field] = id + 2
	} else {
		x.elemHType[t] = id + 2
	}
	return id
}

// roots emits entry and the synthetic parameter sites of test roots.
func (x *extractor) roots() {
	f := x.f
	seen := make(map[uint32]bool)
	entry := func(fn *ssa.Function) {
		if fn == nil {
			return
		}
		if m, ok := f.funcID[fn]; ok && !seen[m] {
			seen[m] = true
			x.e1(rEntry, m)
		}
	}
	for _, r := range f.Prog.Roots {
		for _, init := range r.Inits {
			entry(init)
		}
		entry(r.Func)
		m, ok := f.funcID[r.Func]
		if !ok || r.Kind == Main || r.Kind == Example {
			continue
		}
		pt := r.Func.Signature.Params().At(0).Type()
		h := x.rootSite(SiteParam, r.Func, NoID, pointerElem(pt), false, pt)
		x.e3(rRootParam, m, x.z(0), h)
	}
}

// ---- the walk ----

func (x *extractor) function(m uint32, fn *ssa.Function) {
	if len(x.local) > 1024 {
		x.local = make(map[ssa.Value]uint32)
	} else {
		clear(x.local)
	}
	tc := x.tc
	for z, p := range fn.Params {
		if tc.carriesPointers(p.Type()) {
			x.e3(rFormal, m, x.z(z), x.localValue(p, m))
		}
	}
	if recv := fn.Signature.Recv(); recv != nil {
		if hasPointerReceiver(fn) {
			x.e1(rPtrRecv, m)
		} else if len(fn.Params) > 0 && tc.carriesPointers(recv.Type()) {
			x.e2(rValueRecv, m, x.typeID(recv.Type()))
		}
	}
	for z, fv := range fn.FreeVars {
		if tc.carriesPointers(fv.Type()) {
			x.e3(rFreeVar, m, x.z(z), x.localValue(fv, m))
		}
	}
	// Dead blocks never run: they contribute no facts.
	live := x.f.recordLiveness(liveBlocks(fn))
	x.unevaluated = unevaluatedRanges(fn)
	n := 0
	for _, b := range live {
		n += len(b.Instrs)
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok && tc.carriesPointers(v.Type()) {
				x.localValue(v, m)
			}
		}
	}
	x.f.Stats.Instrs += n
	for _, b := range live {
		for _, instr := range b.Instrs {
			x.instr(m, instr)
		}
	}
}

func (x *extractor) newAccess(instr ssa.Instruction, m uint32) uint32 {
	e := uint32(len(x.f.accesses))
	x.f.accesses = append(x.f.accesses, instr)
	x.e2(rAccessFunc, e, m)
	return e
}

// move emits move(to, from) if both are V's.
func (x *extractor) move(to ssa.Value, from ssa.Value) {
	t, ok := x.local[to]
	if !ok {
		return
	}
	if f, ok := x.vid(from); ok {
		x.e2(rMove, t, f)
	}
}

func (x *extractor) instr(m uint32, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.Alloc:
		h := x.rootSite(SiteAlloc, in, m, pointerElem(in.Type()), false, in.Type())
		x.e2(rAlloc, x.local[in], h)

	case *ssa.MakeSlice:
		elem := in.Type().Underlying().(*types.Slice).Elem()
		h := x.rootSite(SiteMakeSlice, in, m, elem, true, in.Type())
		x.e2(rAlloc, x.local[in], h)

	case *ssa.MakeMap:
		h := x.rootSite(SiteMakeMap, in, m, in.Type(), false, in.Type())
		x.e2(rAlloc, x.local[in], h)

	case *ssa.MakeChan:
		h := x.rootSite(SiteMakeChan, in, m, in.Type(), false, in.Type())
		x.e2(rAlloc, x.local[in], h)
		if c, ok := in.Size.(*ssa.Const); ok && c.Value != nil {
			if n, exact := constant.Int64Val(constant.ToInt(c.Value)); exact && n >= 0 && n < 1<<16 {
				x.e2(rChanCap, h, uint32(n)) // filtered to Z's size in finish
			}
		}

	case *ssa.MakeClosure:
		fn := in.Fn.(*ssa.Function)
		h := x.rootSite(SiteClosure, in, m, nil, false, in.Type())
		x.e2(rAlloc, x.local[in], h)
		if fm, ok := x.f.funcID[fn]; ok {
			x.e2(rFuncObj, h, fm)
		}
		for z, b := range in.Bindings {
			if v, ok := x.vid(b); ok {
				x.e3(rClosureBind, h, x.z(z), v)
			}
		}
		if spawnsCallersFunc(in) {
			x.e2(rSpawnClosure, h, m)
		}

	case *ssa.MakeInterface:
		x.makeInterface(m, in)

	case *ssa.Phi:
		if to, ok := x.local[in]; ok {
			for _, e := range in.Edges {
				if from, ok := x.vid(e); ok {
					x.e2(rMove, to, from)
				}
			}
		}

	case *ssa.ChangeType:
		x.move(in, in.X)
	case *ssa.ChangeInterface:
		x.move(in, in.X)
	case *ssa.SliceToArrayPointer:
		x.move(in, in.X)
	case *ssa.MultiConvert:
		x.move(in, in.X)
	case *ssa.Field:
		if x.isTree(in.X.Type()) {
			if st, ok := in.X.Type().Underlying().(*types.Struct); ok {
				if fid, ok := x.fieldIDs[fieldKey{x.structID(st, false), int32(in.Field)}]; ok {
					x.treePart(in, in.X, fid)
				}
			}
			return
		}
		x.move(in, in.X)
	case *ssa.Index:
		if x.isTree(in.X.Type()) {
			x.treePart(in, in.X, FieldElem)
			return
		}
		x.move(in, in.X)
	case *ssa.TypeAssert:
		to, ok1 := x.local[in]
		from, ok2 := x.vid(in.X)
		if ok1 && ok2 {
			x.e2(rTypeAssert, to, from)
			x.asserts = append(x.asserts, assertion{to, in.AssertedType})
		}
	case *ssa.Slice:
		if !isStringType(in.X.Type()) {
			x.move(in, in.X)
		}

	case *ssa.Convert:
		from, to := in.X.Type(), in.Type()
		switch {
		case isStringType(from):
			if _, ok := to.Underlying().(*types.Slice); ok {
				elem := to.Underlying().(*types.Slice).Elem()
				h := x.rootSite(SiteBytes, in, m, elem, true, to)
				x.e2(rAlloc, x.local[in], h)
			}
		case isStringType(to):
			if _, ok := from.Underlying().(*types.Slice); ok {
				if s, ok := x.vid(in.X); ok {
					e := x.newAccess(in, m)
					x.e2(rRead, e, s)
					x.e1(rDeepAccess, e)
				}
			}
		default:
			x.move(in, in.X) // pointer <-> unsafe.Pointer; uintptr -> unsafe.Pointer has no V
		}

	case *ssa.Extract:
		to, ok := x.local[in]
		if !ok {
			return
		}
		if sel, ok := in.Tuple.(*ssa.Select); ok {
			if in.Index >= 2 {
				k := in.Index - 2
				for _, st := range sel.States {
					if st.Dir != types.RecvOnly {
						continue
					}
					if k == 0 {
						if ch, ok := x.vid(st.Chan); ok {
							x.e3(rContentLoad, to, ch, FieldChan)
						}
						break
					}
					k--
				}
			}
			return
		}
		if _, ok := in.Tuple.(*ssa.Call); ok {
			return // callResult: the call's result z is this Extract
		}
		if next, ok := in.Tuple.(*ssa.Next); ok {
			// A range over a map: (ok, key, value). go/ssa reads a Next's
			// tuple only through Extracts, so the key and the value load
			// their own contents and the tuple holds none.
			field := FieldMapKey
			if in.Index == 2 {
				field = FieldMapValue
			}
			if rng, ok := next.Iter.(*ssa.Range); ok && !next.IsString && in.Index > 0 {
				if mp, ok := x.vid(rng.X); ok {
					x.e3(rContentLoad, to, mp, field)
				}
			}
			return
		}
		if from, ok := x.vid(in.Tuple); ok {
			x.e2(rMove, to, from)
		}

	case *ssa.FieldAddr:
		to, ok1 := x.local[in]
		base, ok2 := x.vid(in.X)
		_, st := fieldAddrStruct(in)
		if ok1 && ok2 && st != nil {
			if fid, ok := x.fieldIDs[fieldKey{x.structID(st, false), int32(in.Field)}]; ok {
				x.e3(rFieldAddr, to, base, fid)
			}
		}

	case *ssa.IndexAddr:
		to, ok1 := x.local[in]
		base, ok2 := x.vid(in.X)
		if ok1 && ok2 {
			x.e3(rFieldAddr, to, base, FieldElem)
		}

	case *ssa.Lookup:
		if _, ok := in.X.Type().Underlying().(*types.Map); !ok {
			return // string index
		}
		mp, ok := x.vid(in.X)
		if !ok {
			return
		}
		e := x.newAccess(in, m)
		x.e2(rMapRead, e, mp)
		if to, ok := x.local[in]; ok {
			x.e3(rContentLoad, to, mp, FieldMapValue)
		}

	case *ssa.Range:
		if _, ok := in.X.Type().Underlying().(*types.Map); !ok {
			return
		}
		if mp, ok := x.vid(in.X); ok {
			e := x.newAccess(in, m)
			x.e2(rMapRead, e, mp)
		}

	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			ptr, ok := x.vid(in.X)
			if !ok || x.unevaluated[in.Pos()] && isArrayValue(in) {
				return
			}
			e := x.newAccess(in, m)
			x.e2(rRead, e, ptr)
			agg := isAggregate(in.Type())
			if agg {
				x.e1(rDeepAccess, e)
			}
			if to, ok := x.local[in]; ok {
				if x.isTree(in.Type()) {
					h := x.rootSite(SiteValue, in, m, in.Type(), false, in.Type())
					x.e2(rAlloc, to, h)
					x.e2(rCopyLoad, to, ptr)
				} else {
					x.e2(rLoad, to, ptr)
				}
			}
		case token.ARROW:
			ch, ok := x.vid(in.X)
			if !ok {
				return
			}
			e := x.newAccess(in, m)
			x.e3(rChanOp, e, ch, ChanRecv)
			if to, ok := x.local[in]; ok {
				x.e3(rContentLoad, to, ch, FieldChan)
			}
		}

	case *ssa.Store:
		ptr, ok := x.vid(in.Addr)
		if !ok {
			return
		}
		e := x.newAccess(in, m)
		x.e2(rWrite, e, ptr)
		agg := isAggregate(in.Val.Type())
		if agg {
			x.e1(rDeepAccess, e)
		}
		if from, ok := x.vid(in.Val); ok {
			if x.isTree(in.Val.Type()) {
				x.e2(rCopyStore, ptr, from)
			} else {
				x.e2(rStore, ptr, from)
			}
		}

	case *ssa.MapUpdate:
		mp, ok := x.vid(in.Map)
		if !ok {
			return
		}
		e := x.newAccess(in, m)
		x.e2(rMapWrite, e, mp)
		if k, ok := x.vid(in.Key); ok {
			x.e3(rContentStore, mp, FieldMapKey, k)
		}
		if v, ok := x.vid(in.Value); ok {
			x.e3(rContentStore, mp, FieldMapValue, v)
		}

	case *ssa.Send:
		ch, ok := x.vid(in.Chan)
		if !ok {
			return
		}
		e := x.newAccess(in, m)
		x.e3(rChanOp, e, ch, ChanSend)
		x.e2(rRead, e, ch) // the race detector: a send reads the channel, close writes it
		if v, ok := x.vid(in.X); ok {
			x.e3(rContentStore, ch, FieldChan, v)
		}

	case *ssa.Select:
		e := NoID
		for _, st := range in.States {
			ch, ok := x.vid(st.Chan)
			if !ok {
				continue
			}
			if e == NoID {
				e = x.newAccess(in, m)
			}
			if st.Dir == types.SendOnly {
				x.e3(rChanOp, e, ch, ChanSend)
				x.e2(rRead, e, ch)
				if v, ok := x.vid(st.Send); ok {
					x.e3(rContentStore, ch, FieldChan, v)
				}
			} else {
				x.e3(rChanOp, e, ch, ChanRecv)
			}
		}

	case *ssa.Panic:
		if v, ok := x.vid(in.X); ok {
			x.e1(rPanicVal, v)
		}

	case *ssa.Return:
		for z, r := range in.Results {
			if v, ok := x.vid(r); ok {
				x.e3(rRet, m, x.z(z), v)
			}
		}

	case *ssa.Call:
		x.call(m, in)
	case *ssa.Go:
		x.call(m, in)
	case *ssa.Defer:
		x.call(m, in)
	}
}

// makeInterface: interfaces are transparent for pointers. A pointer (or an
// unnamed map, chan or func, or a named one without methods) moves into the
// interface unchanged: its objects carry their dynamic type. Other values get
// a box site with the static type (the dynamic type method dispatch needs),
// and the pointers inside the value move into the interface too.
func (x *extractor) makeInterface(m uint32, in *ssa.MakeInterface) {
	to := x.local[in]
	t := in.X.Type()
	from, hasFrom := x.vid(in.X)
	direct := false
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		direct = true
	case *types.Basic:
		direct = u.Kind() == types.UnsafePointer
	case *types.Map, *types.Chan, *types.Signature:
		direct = x.methodCount(t) == 0
	}
	if direct {
		if hasFrom {
			x.e2(rMove, to, from)
			x.e2(rIfaceType, to, x.typeID(t))
		}
		return
	}
	carries := x.tc.carriesPointers(t)
	if !carries && x.methodCount(t) == 0 {
		return // a number or string without methods: nothing to point to or dispatch on
	}
	x.e2(rIfaceType, to, x.typeID(t))
	h := x.rootSite(SiteBox, in, m, t, false, t)
	x.e2(rAlloc, to, h)
	if hasFrom {
		if x.isTree(t) {
			x.e2(rCopyStore, to, from) // the box is a copy of the value tree
		} else {
			x.e2(rMove, to, from)
		}
	}
}

// treePart emits to = X.f for a value tree X: the sub-tree (fieldAddr) if
// to is a tree itself, the contents of the location (contentLoad) otherwise.
func (x *extractor) treePart(to, base ssa.Value, fid uint32) {
	t, ok := x.local[to]
	if !ok {
		return
	}
	b, ok := x.vid(base)
	if !ok {
		return
	}
	if x.isTree(to.Type()) {
		x.e3(rFieldAddr, t, b, fid)
	} else {
		x.e3(rContentLoad, t, b, fid)
	}
}

func (x *extractor) call(m uint32, instr ssa.CallInstruction) {
	f := x.f
	common := instr.Common()
	i := uint32(len(f.calls))
	f.calls = append(f.calls, instr)
	x.e2(rCallSite, i, m)
	switch instr.(type) {
	case *ssa.Go:
		x.e1(rGoCall, i)
	case *ssa.Defer:
		x.e1(rDeferCall, i)
	}
	res := NoID
	if v := instr.Value(); v != nil {
		if id, ok := x.local[v]; ok {
			res = id
		}
	}
	results := x.results(instr)
	args := func(z0 int) {
		for k, a := range common.Args {
			if v, ok := x.vid(a); ok {
				x.e3(rActual, i, x.z(z0+k), v)
			}
		}
		for _, r := range results {
			x.e3(rCallResult, i, x.z(r.z), r.v)
		}
	}
	if common.IsInvoke() {
		if recv, ok := x.vid(common.Value); ok {
			x.e3(rInvoke, i, recv, x.nameID(common.Method))
			x.e3(rActual, i, x.z(0), recv)
		}
		args(1)
		return
	}
	switch fn := common.Value.(type) {
	case *ssa.Builtin:
		x.builtin(m, instr, fn, res)
	case *ssa.Function:
		callee, ok := f.funcID[fn]
		if !ok {
			return
		}
		x.e2(rStaticCall, i, callee)
		args(0)
		md := &x.models[callee]
		if md.kind != modelNone {
			x.applyModel(m, i, instr, md, res)
		}
		if !f.analyzed[callee] && !md.loadResult {
			// A function without body (or in the runtime) returning pointers:
			// each pointer-carrying result points to an unknown object (one
			// per call site and result).
			var site [8]uint32 // by result index, +1
			for _, r := range results {
				t := r.typ
				if r.z < len(site) && site[r.z] != 0 {
					x.e2(rAlloc, r.v, site[r.z]-1)
					continue
				}
				obj, array, _ := pointeeShape(t)
				if x.isTree(t) {
					obj, array = t, false
				}
				h := x.rootSite(SiteUnknown, instr.Value(), m, obj, array, t)
				x.e2(rAlloc, r.v, h)
				x.e1(rOpaqueType, h)
				if r.z < len(site) {
					site[r.z] = h + 1
				}
			}
		}
	default:
		if fv, ok := x.vid(common.Value); ok {
			x.e2(rDynCall, i, fv)
		}
		args(0)
	}
}

// result is a pointer-carrying result of a call: its index and the value
// that holds it (the call itself for one result, else an Extract).
type result struct {
	z   int
	v   uint32
	typ types.Type
}

// results returns the pointer-carrying results of a call, so that results
// flow to their own Extracts rather than to the tuple as a whole.
func (x *extractor) results(instr ssa.CallInstruction) []result {
	v := instr.Value()
	if v == nil {
		return nil
	}
	if _, ok := v.Type().(*types.Tuple); !ok {
		if id, ok := x.local[v]; ok {
			return []result{{0, id, v.Type()}}
		}
		return nil
	}
	var out []result
	for _, ref := range *v.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok {
			if id, ok := x.local[e]; ok {
				out = append(out, result{e.Index, id, e.Type()})
			}
		}
	}
	return out
}

func (x *extractor) applyModel(m, i uint32, instr ssa.CallInstruction, md *model, res uint32) {
	args := instr.Common().Args
	if md.kind == modelAsync {
		x.asyncCall(m, instr, args, md)
		return
	}
	if int(md.addrArg) >= len(args) {
		return
	}
	addr, ok := x.vid(args[md.addrArg])
	if !ok {
		return
	}
	switch md.kind {
	case modelLock, modelSync:
		if md.kind == modelLock {
			x.e3(rLockOp, i, addr, uint32(md.z))
		} else {
			x.e3(rSyncCall, i, addr, uint32(md.z))
		}
		// The race detector sees these operations as atomic reads and
		// writes of the object: a plain write of a Mutex or WaitGroup
		// (mu = sync.Mutex{}) races with them.
		e := x.newAccess(instr, m)
		x.e2(rRead, e, addr)
		x.e2(rWrite, e, addr)
		x.e1(rAtomicAccess, e)
	case modelAtomic, modelRace:
		e := x.newAccess(instr, m)
		if md.read {
			x.e2(rRead, e, addr)
		}
		if md.write {
			x.e2(rWrite, e, addr)
		}
		if md.kind == modelAtomic {
			x.e1(rAtomicAccess, e)
		}
		x.modelFlow(md, args, addr, res)
	case modelPool:
		x.modelFlow(md, args, addr, res)
	}
}

// modelFlow emits a model's loads and stores through addr.
func (x *extractor) modelFlow(md *model, args []ssa.Value, addr, res uint32) {
	if md.loadResult && res != NoID {
		x.e2(rLoad, res, addr)
	}
	if md.storeArg >= 0 && int(md.storeArg) < len(args) {
		if v, ok := x.vid(args[md.storeArg]); ok {
			x.e2(rStore, addr, v)
		}
	}
}

// asyncCall emits a synthetic go call site for a function the runtime calls
// later in another goroutine (timer callbacks, finalizers, cleanups). Its I
// id maps to the same call instruction as the registering call.
func (x *extractor) asyncCall(m uint32, instr ssa.CallInstruction, args []ssa.Value, md *model) {
	if int(md.fnArg) >= len(args) || int(md.argArg) >= len(args) {
		return
	}
	fv, ok := x.vid(args[md.fnArg])
	if !ok {
		return
	}
	f := x.f
	i := uint32(len(f.calls))
	f.calls = append(f.calls, instr)
	x.e2(rCallSite, i, m)
	x.e1(rGoCall, i)
	x.e2(rDynCall, i, fv)
	if md.argArg >= 0 {
		if a, ok := x.vid(args[md.argArg]); ok {
			x.e3(rActual, i, x.z(0), a)
		}
	}
}

// spawnsCallersFunc reports whether closure c binds a parameter of function
// type of the function that makes it (go/ssa binds the variable the
// parameter is spilled to), and a go statement of that function starts
// c: each call of the function starts a goroutine that runs what the
// caller gave it (kobj.dl's spawnClosure).
func spawnsCallersFunc(c *ssa.MakeClosure) bool {
	started := slices.ContainsFunc(*c.Referrers(), func(r ssa.Instruction) bool {
		g, ok := r.(*ssa.Go)
		return ok && g.Call.Value == ssa.Value(c)
	})
	return started && slices.ContainsFunc(c.Bindings, func(b ssa.Value) bool {
		v, ok := b.(*ssa.Alloc)
		return ok && slices.ContainsFunc(*v.Referrers(), func(r ssa.Instruction) bool {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != ssa.Value(v) {
				return false
			}
			_, param := st.Val.(*ssa.Parameter)
			_, isFunc := st.Val.Type().Underlying().(*types.Signature)
			return param && isFunc
		})
	})
}

func (x *extractor) builtin(m uint32, instr ssa.CallInstruction, fn *ssa.Builtin, res uint32) {
	args := instr.Common().Args
	switch fn.Name() {
	case "append":
		if res == NoID || len(args) == 0 {
			return
		}
		st := instr.Value().Type()
		elem := st.Underlying().(*types.Slice).Elem()
		elemCarries := x.tc.carriesPointers(elem)
		h := x.rootSite(SiteAppend, instr.Value(), m, elem, true, st)
		x.e2(rAlloc, res, h)
		e := x.newAccess(instr, m)
		x.e2(rWrite, e, res)
		x.e1(rDeepAccess, e)
		if s, ok := x.vid(args[0]); ok {
			x.e2(rMove, res, s) // with spare capacity, append reuses s's array
			if elemCarries {
				x.e3(rCopyContents, res, s, FieldElem)
			}
		}
		if len(args) > 1 && !isStringType(args[1].Type()) {
			if xs, ok := x.vid(args[1]); ok {
				x.e2(rRead, e, xs)
				if elemCarries {
					x.e3(rCopyContents, res, xs, FieldElem)
				}
			}
		}
	case "copy":
		if len(args) != 2 {
			return
		}
		dst, ok := x.vid(args[0])
		if !ok {
			return
		}
		e := x.newAccess(instr, m)
		x.e2(rWrite, e, dst)
		x.e1(rDeepAccess, e)
		if !isStringType(args[1].Type()) {
			if src, ok := x.vid(args[1]); ok {
				x.e2(rRead, e, src)
				if x.tc.carriesPointers(args[0].Type().Underlying().(*types.Slice).Elem()) {
					x.e3(rCopyContents, dst, src, FieldElem)
				}
			}
		}
	case "len":
		if len(args) == 1 {
			if _, ok := args[0].Type().Underlying().(*types.Map); ok {
				if mp, ok := x.vid(args[0]); ok {
					x.e2(rMapRead, x.newAccess(instr, m), mp)
				}
			}
		}
	case "delete":
		if mp, ok := x.vid(args[0]); ok {
			x.e2(rMapWrite, x.newAccess(instr, m), mp)
		}
	case "clear":
		v, ok := x.vid(args[0])
		if !ok {
			return
		}
		e := x.newAccess(instr, m)
		if _, ok := args[0].Type().Underlying().(*types.Map); ok {
			x.e2(rMapWrite, e, v)
		} else {
			x.e2(rWrite, e, v)
			x.e1(rDeepAccess, e)
		}
	case "close":
		if ch, ok := x.vid(args[0]); ok {
			e := x.newAccess(instr, m)
			x.e3(rChanOp, e, ch, ChanClose)
			x.e2(rWrite, e, ch)
		}
	case "recover":
		if res != NoID {
			x.e1(rRecoverVal, res)
		}
	case "ssa:wrapnilchk", "Add", "Slice", "SliceData":
		// wrapnilchk(ptr, ...) returns ptr; unsafe.Add/Slice/SliceData
		// return (a pointer into) the object their first argument points to.
		if res != NoID {
			if v, ok := x.vid(args[0]); ok {
				x.e2(rMove, res, v)
			}
		}
	}
}

// assertTypes emits assertType: for each type assertion, the dynamic types
// (the types of MakeInterface operands, ifaceType) for which it succeeds:
// the asserted type itself if it is concrete, the types that implement it if
// it is an interface.
func (x *extractor) assertTypes() {
	f := x.f
	it := &f.rels[rIfaceType]
	seen := make(map[uint32]bool)
	var dyn []uint32
	for k := 1; k < len(it.data); k += 2 {
		if t := it.data[k]; !seen[t] {
			seen[t] = true
			dyn = append(dyn, t)
		}
	}
	slices.Sort(dyn)
	var ifaces typeutil.Map // interface type -> []uint32 dynamic types implementing it
	ifaces.SetHasher(typeutil.MakeHasher())
	for _, a := range x.asserts {
		if iface, ok := a.typ.Underlying().(*types.Interface); ok {
			var ts []uint32
			if v := ifaces.At(a.typ); v != nil {
				ts = v.([]uint32)
			} else {
				for _, t := range dyn {
					if types.Implements(f.types[t], iface) {
						ts = append(ts, t)
					}
				}
				ifaces.Set(a.typ, ts)
			}
			for _, t := range ts {
				x.e2(rAssertType, a.to, t)
			}
			continue
		}
		if v := x.typeMap.At(a.typ); v != nil && seen[v.(uint32)] {
			x.e2(rAssertType, a.to, v.(uint32))
		}
	}
}

// methods emits methodImpl for the dynamic types of objects and the method
// names some interface call uses.
func (x *extractor) methods() {
	f := x.f
	for tid := 0; tid < len(f.types); tid++ {
		t := f.types[tid]
		if types.IsInterface(t) {
			continue
		}
		mset := x.prog.MethodSets.MethodSet(t)
		for k := 0; k < mset.Len(); k++ {
			sel := mset.At(k)
			obj := sel.Obj().(*types.Func)
			key := obj.Name()
			if !obj.Exported() && obj.Pkg() != nil {
				key = obj.Pkg().Path() + "." + key
			}
			n := x.nameKeyID(key, false)
			if n == NoID {
				continue // no interface call uses this name
			}
			fn := x.prog.MethodValue(sel)
			if fn == nil {
				continue
			}
			if mid, ok := f.funcID[fn]; ok {
				x.e3(rMethodImpl, uint32(tid), n, mid)
			}
		}
	}
}

func (x *extractor) finish() {
	f := x.f
	zs := int(x.maxZ) + 1
	if zs < numOpKinds {
		zs = numOpKinds
	}
	f.zSize = zs
	cc := &f.rels[rChanCap]
	out := cc.data[:0]
	for k := 0; k < len(cc.data); k += 2 {
		if int(cc.data[k+1]) < zs {
			out = append(out, cc.data[k], cc.data[k+1])
		}
	}
	cc.data = out
	f.deriveUses()
	x.assertTypes()
	total := 0
	for r := range numRels {
		f.rels[r].sortDedup()
		total += f.rels[r].len()
	}
	f.callerOf = make([]uint32, len(f.calls))
	for k, cs := 0, &f.rels[rCallSite]; k < len(cs.data); k += 2 {
		f.callerOf[cs.data[k]] = cs.data[k+1]
	}
	f.accessFn = make([]uint32, len(f.accesses))
	for k, af := 0, &f.rels[rAccessFunc]; k < len(af.data); k += 2 {
		f.accessFn[af.data[k]] = af.data[k+1]
	}
	st := &f.Stats
	st.Values, st.Sites, st.Fields, st.Types, st.Names = len(f.values), len(f.sites), len(f.fields), len(f.types), len(f.names)
	st.Calls, st.Accesses, st.Tuples = len(f.calls), len(f.accesses), total
}
