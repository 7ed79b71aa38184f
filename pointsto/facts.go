package pointsto

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/ssa"
)

// NoID marks a missing id.
const NoID = ^uint32(0)

// Pseudo-fields: the first four F ids.
//
// A map's keys and values are different contents: m[k] gives a value, never
// a key, so a map keyed by pointers does not make its lookups point to the
// keys. Only a range (the key of its Next) reads the keys; reflect and the
// runtime's map functions that could too are not analyzed (doc.go).
const (
	FieldElem     uint32 = 0 // [*]: the elements of an array or a slice's backing array
	FieldMapKey   uint32 = 1 // [key]: the keys of a map
	FieldMapValue uint32 = 2 // [value]: the values of a map
	FieldChan     uint32 = 3 // [chan]: the elements buffered in (or passed through) a channel

	pseudoFields = 4
)

// SiteKind says what created an abstract object.
type SiteKind uint8

const (
	SiteAlloc     SiteKind = iota // *ssa.Alloc: new(T), &T{...}, escaping variables, make([]T, n, const)
	SiteMakeSlice                 // *ssa.MakeSlice: the backing array
	SiteMakeMap                   // *ssa.MakeMap
	SiteMakeChan                  // *ssa.MakeChan
	SiteClosure                   // *ssa.MakeClosure: the closure object
	SiteBox                       // *ssa.MakeInterface of a value that is not a pointer: the box
	SiteAppend                    // call of the builtin append: the grown backing array
	SiteBytes                     // *ssa.Convert of a string to []byte or []rune: the new array
	SiteGlobal                    // *ssa.Global: its storage
	SiteFunc                      // *ssa.Function used as a value: the function object
	SiteParam                     // synthetic: the *testing.T/B/F/M a test root receives
	SiteUnknown                   // synthetic: the result of a call of a function that is not analyzed (no body, runtime)
	SiteValue                     // a value tree: a struct or array value loaded into a register (*ssa.UnOp)
	SiteSub                       // a location inside a root site (field, element, map or channel contents)
)

var siteKindNames = [...]string{"alloc", "makeslice", "makemap", "makechan", "closure", "box", "append", "bytes", "global", "func", "param", "unknown", "value", "sub"}

func (k SiteKind) String() string { return siteKindNames[k] }

// Site describes an abstract object (H id).
type Site struct {
	Kind   SiteKind
	Root   uint32    // the root site: the site itself unless Kind == SiteSub
	Parent uint32    // the enclosing site of a sub-site; NoID for root sites
	Field  uint32    // the F id of a sub-site within Parent; NoID for root sites
	Value  ssa.Value // the allocating instruction, Global or Function; the call for SiteUnknown; the root function for SiteParam; for sub-sites the root's Value
	Func   uint32    // M id of the function containing Value; NoID for globals, function objects and synthetic sites
	// Type is the type of the object (for SiteSub: of the location); nil if
	// unknown. If Array is set the object is an array of Type (a slice's
	// backing array).
	Type  types.Type
	Array bool
}

type fieldInfo struct {
	v     *types.Var // nil for pseudo-fields
	owner types.Type // the struct type as the first FieldAddr saw it (for descriptions)
}

// Stats counts what Extract produced and how long it took.
type Stats struct {
	Funcs, FuncsNoBody, Instrs                     int
	Values, Sites, RootSites, Fields, Types, Names int
	Calls, Accesses                                int
	Tuples                                         int
	ReachTime, FieldsTime, WalkTime                time.Duration
	MethodsTime, SortTime                          time.Duration
}

// Facts holds the domains and base relations of a program.
type Facts struct {
	Prog  *Program
	Stats Stats

	funcs    []*ssa.Function
	funcID   map[*ssa.Function]uint32
	analyzed []bool // by M: the body is analyzed
	values   []ssa.Value
	valueFn  []uint32
	sites    []Site
	fields   []fieldInfo
	types    []types.Type
	names    []string
	calls    []ssa.CallInstruction
	accesses []ssa.Instruction
	callerOf []uint32 // by I: callSite
	accessFn []uint32 // by E: accessFunc
	sigs     []types.Type
	zSize    int
	dead     map[*ssa.BasicBlock]bool          // blocks that never run (liveBlocks)
	deadEdge map[[2]*ssa.BasicBlock]bool       // branches from live blocks that are never taken
	loops    map[*ssa.BasicBlock]*CountingLoop // by header

	rels [numRels]relation

	whole   *Facts // the facts of all programs, for one program's (forProgram)
	reached []bool // by M, for one program's: reached from its roots; nil: all
	byInstr *accessIndex
}

// accessIndex gives the accesses of each instruction: a span of flat per
// instruction, ids ascending. One for all programs, made at first use.
type accessIndex struct {
	once  sync.Once
	span  map[ssa.Instruction]uint32 // index into start
	start []uint32                   // by span, and one past the last
	flat  []uint32
}

// Size returns the number of ids of a domain.
func (f *Facts) Size(d Domain) int {
	switch d {
	case DomM:
		return len(f.funcs)
	case DomV:
		return len(f.values)
	case DomH:
		return len(f.sites)
	case DomF:
		return len(f.fields)
	case DomT:
		return len(f.types)
	case DomN:
		return len(f.names)
	case DomI:
		return len(f.calls)
	case DomZ:
		return f.zSize
	case DomE:
		return len(f.accesses)
	case DomS:
		return len(f.sigs)
	}
	return 0
}

// Func returns the function with M id id.
func (f *Facts) Func(id uint32) *ssa.Function { return f.funcs[id] }

// FuncID returns the M id of fn.
func (f *Facts) FuncID(fn *ssa.Function) (uint32, bool) {
	id, ok := f.funcID[fn]
	return id, ok
}

// Analyzed reports whether the code of function m is analyzed: false for
// functions without a Go body and for the runtime's functions (noBody).
func (f *Facts) Analyzed(m uint32) bool { return f.analyzed[m] }

// Live reports whether block b of an analyzed function can run: a branch
// on a condition that is constant in every execution never takes its other
// side. Dead blocks contribute no facts.
func (f *Facts) Live(b *ssa.BasicBlock) bool { return !f.dead[b] }

// Loop returns the counting loop block h heads, or nil.
func (f *Facts) Loop(h *ssa.BasicBlock) *CountingLoop { return f.loops[h] }

// Repeats reports whether block b may run more than once per call of its
// function: it lies on a cycle of branches that may be taken, where a
// counting loop whose body runs at most once, once back at its header,
// must leave.
func (f *Facts) Repeats(b *ssa.BasicBlock) bool {
	type state struct {
		b    *ssa.BasicBlock
		back bool // arrived at a once-header by its back edge
	}
	seen := map[state]bool{}
	stack := []state{{b, false}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		succs := x.b.Succs
		if x.back {
			succs = succs[1:] // the test fails: the loop exits
		}
		for _, y := range succs {
			if f.deadEdge[[2]*ssa.BasicBlock{x.b, y}] {
				continue
			}
			if y == b {
				return true
			}
			s := state{y, f.loops[y] != nil && f.loops[y].runsOnce() && y.Dominates(x.b)}
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}

// Value returns the SSA value with V id id: an instruction result, a
// Parameter, a FreeVar, a Global or a Function used as a value.
func (f *Facts) Value(id uint32) ssa.Value { return f.values[id] }

// ValueFunc returns the M id of the function the value belongs to, or NoID
// for globals and functions used as values.
func (f *Facts) ValueFunc(id uint32) uint32 { return f.valueFn[id] }

// Site returns the description of site id.
func (f *Facts) Site(id uint32) Site { return f.sites[id] }

// Field returns the struct field of F id id, or nil for pseudo-fields.
func (f *Facts) Field(id uint32) *types.Var { return f.fields[id].v }

// Type returns the type with T id id.
func (f *Facts) Type(id uint32) types.Type { return f.types[id] }

// Name returns the method name with N id id ("pkgpath.name" for unexported names).
func (f *Facts) Name(id uint32) string { return f.names[id] }

// Call returns the call instruction with I id id. A synthetic call site (the
// runtime calling a timer callback, finalizer or cleanup in another
// goroutine) maps to the call that registered the callback.
func (f *Facts) Call(id uint32) ssa.CallInstruction { return f.calls[id] }

// Caller returns the M id of the function call site i is in (callSite).
func (f *Facts) Caller(i uint32) uint32 { return f.callerOf[i] }

// AccessFunc returns the M id of the function access e is in (accessFunc).
func (f *Facts) AccessFunc(e uint32) uint32 { return f.accessFn[e] }

// Access returns the instruction with E id id: a load (*ssa.UnOp), store,
// map, channel or select instruction, or a call (builtins, sync/atomic).
func (f *Facts) Access(id uint32) ssa.Instruction { return f.accesses[id] }

// AccessesAt returns the accesses (E ids, ascending) that instruction
// instr of function m makes in these facts: none if m is not in them (a
// program's facts hold the functions its roots reach). The index behind
// it is the whole load's, shared by its programs' analyses.
func (f *Facts) AccessesAt(m uint32, instr ssa.Instruction) []uint32 {
	if f.reached != nil && !f.reached[m] {
		return nil
	}
	ix := f.byInstr
	ix.once.Do(func() {
		ix.span = make(map[ssa.Instruction]uint32)
		var count []uint32
		for _, instr := range f.accesses {
			k, ok := ix.span[instr]
			if !ok {
				k = uint32(len(count))
				ix.span[instr] = k
				count = append(count, 0)
			}
			count[k]++
		}
		ix.start = make([]uint32, len(count)+1)
		for k, n := range count {
			ix.start[k+1] = ix.start[k] + n
		}
		ix.flat = make([]uint32, len(f.accesses))
		next := slices.Clone(ix.start[:len(count)])
		for e, instr := range f.accesses {
			k := ix.span[instr]
			ix.flat[next[k]] = uint32(e)
			next[k]++
		}
	})
	k, ok := ix.span[instr]
	if !ok {
		return nil
	}
	return ix.flat[ix.start[k]:ix.start[k+1]:ix.start[k+1]]
}

func (f *Facts) position(pos token.Pos) token.Position {
	if !pos.IsValid() || f.Prog.Fset == nil {
		return token.Position{}
	}
	return f.Prog.Fset.Position(pos)
}

// SitePos returns the source position of a site (of its root for sub-sites).
func (f *Facts) SitePos(id uint32) token.Position {
	s := &f.sites[f.sites[id].Root]
	if s.Value == nil {
		return token.Position{}
	}
	pos := s.Value.Pos()
	if mc, ok := s.Value.(*ssa.MakeClosure); ok && !pos.IsValid() {
		pos = mc.Fn.Pos()
	}
	if s.Kind == SiteUnknown {
		if c, ok := s.Value.(ssa.CallInstruction); ok {
			pos = c.Common().Pos()
		}
	}
	if !pos.IsValid() {
		// Implicit conversions to interfaces have no position: use the
		// position of the instruction that uses the value.
		if refs := s.Value.Referrers(); refs != nil {
			for _, r := range *refs {
				if p := accessPos(r); p.IsValid() {
					pos = p
					break
				}
			}
		}
	}
	return f.position(pos)
}

// ValuePos returns the source position of a value, if it has one.
func (f *Facts) ValuePos(id uint32) token.Position { return f.position(f.values[id].Pos()) }

// CallPos returns the source position of a call site.
func (f *Facts) CallPos(id uint32) token.Position { return f.position(f.calls[id].Pos()) }

// AccessPos returns the source position of an access or, where go/ssa
// gives it none (an implicit load, a wrapper method, code synthesized for
// range-over-func), the nearest one (nearestPos).
func (f *Facts) AccessPos(id uint32) token.Position { return f.position(nearestPos(f.accesses[id])) }

// nearestPos returns instr's position, or the nearest one in the source:
// the closest instruction of its block with a position, after it then
// before it (a named result is loaded, with no position, just before its
// return statement); else the position of its function, or of the
// declaration the function was made from (the method a wrapper calls), or
// of the function it is nested in; for a package initializer, the
// package's first declaration in file order (token.Pos order depends on
// the order in which files were loaded).
func nearestPos(instr ssa.Instruction) token.Pos {
	if p := accessPos(instr); p.IsValid() {
		return p
	}
	if b := instr.Block(); b != nil {
		i := slices.Index(b.Instrs, instr)
		for k := i + 1; k < len(b.Instrs); k++ {
			if p := accessPos(b.Instrs[k]); p.IsValid() {
				return p
			}
		}
		for k := i - 1; k >= 0; k-- {
			if p := accessPos(b.Instrs[k]); p.IsValid() {
				return p
			}
		}
	}
	for fn := instr.Parent(); fn != nil; fn = fn.Parent() {
		if fn.Pos().IsValid() {
			return fn.Pos()
		}
		if obj := fn.Object(); obj != nil && obj.Pos().IsValid() {
			return obj.Pos()
		}
	}
	first, firstAt := token.NoPos, token.Position{}
	if fn := instr.Parent(); fn.Pkg != nil {
		for _, m := range fn.Pkg.Members {
			p := m.Pos()
			if !p.IsValid() {
				continue
			}
			at := fn.Prog.Fset.Position(p)
			if !first.IsValid() || at.Filename < firstAt.Filename ||
				at.Filename == firstAt.Filename && at.Offset < firstAt.Offset {
				first, firstAt = p, at
			}
		}
	}
	return first
}

// LoadStoreAddr returns the address a load (*p) or a store reads or
// writes, or nil for any other instruction.
func LoadStoreAddr(instr ssa.Instruction) ssa.Value {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Addr
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			return instr.X
		}
	}
	return nil
}

func accessPos(instr ssa.Instruction) token.Pos {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Pos()
	case ssa.CallInstruction:
		return instr.Common().Pos()
	}
	return instr.Pos()
}

func shortPos(p token.Position) string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// FieldDesc describes a field: "(pkg.T).f", "[*]", "[key]", "[value]", "[chan]".
func (f *Facts) FieldDesc(id uint32) string {
	switch id {
	case FieldElem:
		return "[*]"
	case FieldMapKey:
		return "[key]"
	case FieldMapValue:
		return "[value]"
	case FieldChan:
		return "[chan]"
	}
	fi := &f.fields[id]
	return "(" + types.TypeString(fi.owner, nil) + ")." + fi.v.Name()
}

// fieldLabel is the short form used in site paths: ".f" or "[*]".
func (f *Facts) fieldLabel(id uint32) string {
	if id < pseudoFields {
		return f.FieldDesc(id)
	}
	return "." + f.fields[id].v.Name()
}

// SiteDesc describes a site: "file:line:col kind type" for root sites,
// "site#12.f[*]" (the root's id and the path) for sub-sites.
func (f *Facts) SiteDesc(id uint32) string {
	s := &f.sites[id]
	if s.Kind == SiteSub {
		var path []string
		for h := id; f.sites[h].Kind == SiteSub; h = f.sites[h].Parent {
			path = append(path, f.fieldLabel(f.sites[h].Field))
		}
		var b strings.Builder
		b.WriteString("site#")
		b.WriteString(strconv.Itoa(int(s.Root)))
		for k := len(path) - 1; k >= 0; k-- {
			b.WriteString(path[k])
		}
		return b.String()
	}
	var what string
	switch s.Kind {
	case SiteGlobal:
		what = s.Value.(*ssa.Global).String()
	case SiteFunc:
		what = s.Value.(*ssa.Function).String()
	case SiteParam:
		what = s.Value.(*ssa.Function).String() + " param " + types.TypeString(types.NewPointer(s.Type), nil)
	case SiteUnknown:
		what = "result of " + s.Value.(ssa.CallInstruction).Common().StaticCallee().String()
	default:
		what = types.TypeString(s.Value.Type(), nil)
		if a, ok := s.Value.(*ssa.Alloc); ok && a.Comment != "" {
			what += " (" + a.Comment + ")"
		}
		if s.Kind == SiteBox {
			what = types.TypeString(s.Value.(*ssa.MakeInterface).X.Type(), nil)
		}
	}
	return shortPos(f.SitePos(id)) + " " + s.Kind.String() + " " + what
}

// ValueDesc describes a value: "pkg.Func: t3 = &t1.f [#0] @ file:line:col".
func (f *Facts) ValueDesc(id uint32) string {
	v := f.values[id]
	switch v := v.(type) {
	case *ssa.Global:
		return "global " + v.String()
	case *ssa.Function:
		return "func " + v.String()
	case *ssa.Parameter:
		return v.Parent().String() + ": param " + v.Name() + " " + types.TypeString(v.Type(), nil)
	case *ssa.FreeVar:
		return v.Parent().String() + ": freevar " + v.Name() + " " + types.TypeString(v.Type(), nil)
	}
	s := v.Parent().String() + ": " + v.Name() + " = " + v.String()
	if p := f.position(v.Pos()); p.IsValid() {
		s += " @ " + shortPos(p)
	}
	return s
}

// CallDesc describes a call site.
func (f *Facts) CallDesc(id uint32) string {
	c := f.calls[id]
	s := shortPos(f.CallPos(id)) + " " + c.Parent().String() + ": " + c.String()
	if id > 0 && f.calls[id-1] == c {
		s += " [callback the runtime calls in another goroutine]"
	}
	return s
}

// AccessDesc describes an access.
func (f *Facts) AccessDesc(id uint32) string {
	instr := f.accesses[id]
	return shortPos(f.AccessPos(id)) + " " + instr.Parent().String() + ": " + instr.String()
}

// FuncDesc describes a function; functions without a body are marked.
func (f *Facts) FuncDesc(id uint32) string {
	fn := f.funcs[id]
	s := fn.String()
	switch {
	case f.analyzed[id]:
	case IsRuntime(fn): // Load builds no code for the runtime
		s += " (not analyzed)"
	case fn.Blocks == nil:
		s += " (no body)"
	}
	return s
}

// Desc returns a human-readable description of an id of a domain.
func (f *Facts) Desc(d Domain, id uint32) string {
	switch d {
	case DomM:
		return f.FuncDesc(id)
	case DomV:
		return f.ValueDesc(id)
	case DomH:
		return f.SiteDesc(id)
	case DomF:
		return f.FieldDesc(id)
	case DomT:
		return types.TypeString(f.types[id], nil)
	case DomN:
		return f.names[id]
	case DomI:
		return f.CallDesc(id)
	case DomZ:
		return strconv.Itoa(int(id))
	case DomE:
		return f.AccessDesc(id)
	case DomS:
		return types.TypeString(f.sigs[id], nil)
	}
	return ""
}
