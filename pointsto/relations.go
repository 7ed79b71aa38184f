package pointsto

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Domain is one of the id spaces of the facts.
type Domain uint8

const (
	DomM Domain = iota // functions
	DomV               // pointer-carrying SSA values
	DomH               // abstract object sites (root sites and sub-sites)
	DomF               // fields and pseudo-fields [*], [key], [value], [chan]
	DomT               // dynamic types of objects
	DomN               // method names
	DomI               // call sites
	DomZ               // small integers: argument positions and operation kinds
	DomE               // memory access and channel operation instructions
	DomS               // function signatures
	numDomains
)

var domainNames = [numDomains]string{"M", "V", "H", "F", "T", "N", "I", "Z", "E", "S"}

var domainDocs = [numDomains]string{
	"functions",
	"pointer-carrying SSA values",
	"abstract object sites: root sites and their sub-sites",
	"struct fields and the pseudo-fields [*], [key], [value], [chan]",
	"dynamic types of objects",
	"method names",
	"call sites",
	"small integers: argument positions and operation kinds",
	"memory accesses and channel operations",
	"function signatures (receivers ignored)",
}

func (d Domain) String() string { return domainNames[d] }

// DomainByName returns the domain with the given name ("M", "V", ...).
func DomainByName(name string) (Domain, bool) {
	for d, n := range domainNames {
		if n == name {
			return Domain(d), true
		}
	}
	return 0, false
}

// Column is a relation column: its name and domain.
type Column struct {
	Name   string
	Domain Domain
}

type rel uint8

// The relations, in their stable order.
const (
	rAlloc rel = iota
	rGlobal
	rSubSite
	rMove
	rLoad
	rStore
	rFieldAddr
	rContentLoad
	rContentStore
	rCopyContents
	rCopyLoad
	rCopyStore
	rHType
	rMethodImpl

	rCallSite
	rGoCall
	rDeferCall
	rStaticCall
	rDynCall
	rInvoke
	rActual
	rCallResult
	rFormal
	rFreeVar
	rRet
	rFuncObj
	rClosureBind
	rSpawnClosure
	rPanicVal
	rRecoverVal
	rVarFunc
	rEntry
	rRootParam
	rNoBody

	rRead
	rWrite
	rDeepAccess
	rMapRead
	rMapWrite
	rAccessFunc
	rAtomicAccess

	rLockOp
	rChanOp
	rChanCap
	rSyncCall

	rGlobalUse
	rCallSig
	rFuncSig

	rTypeAssert
	rAssertType
	rIfaceType
	rOpaqueType
	rPtrRecv
	rValueRecv

	numRels
)

type relInfo struct {
	name string
	cols []Column
	doc  string
}

func col(name string, d Domain) Column { return Column{name, d} }

var relInfos = [numRels]relInfo{
	rAlloc:        {"alloc", []Column{col("v", DomV), col("h", DomH)}, "v points to the new object of root site h"},
	rGlobal:       {"global", []Column{col("h", DomH)}, "h is a global's storage or a function object: it exists once"},
	rSubSite:      {"subSite", []Column{col("h", DomH), col("f", DomF), col("h2", DomH)}, "h2 is the location f inside h"},
	rMove:         {"move", []Column{col("to", DomV), col("from", DomV)}, "to may hold what from holds"},
	rLoad:         {"load", []Column{col("to", DomV), col("ptr", DomV)}, "to = *ptr"},
	rStore:        {"store", []Column{col("ptr", DomV), col("from", DomV)}, "*ptr = from"},
	rFieldAddr:    {"fieldAddr", []Column{col("to", DomV), col("base", DomV), col("f", DomF)}, "to = &base.f (FieldAddr) or &base[i] (IndexAddr, f = [*])"},
	rContentLoad:  {"contentLoad", []Column{col("to", DomV), col("base", DomV), col("f", DomF)}, "to gets the contents of sub-site f of base's objects (map lookup/range, channel receive)"},
	rContentStore: {"contentStore", []Column{col("base", DomV), col("f", DomF), col("from", DomV)}, "sub-site f of base's objects gets from's pointers (map update, send)"},
	rCopyContents: {"copyContents", []Column{col("dst", DomV), col("src", DomV), col("f", DomF)}, "each location at or below sub-site f of dst's objects gets the contents of the location at the same path below sub-site f of src's objects (copy, append)"},
	rCopyLoad:     {"copyLoad", []Column{col("to", DomV), col("ptr", DomV)}, "to = *ptr, a struct/array value: to's value tree gets a copy of *ptr, location by location (same path)"},
	rCopyStore:    {"copyStore", []Column{col("ptr", DomV), col("from", DomV)}, "*ptr = from, a struct/array value: *ptr gets a copy of from's value tree, location by location (same path)"},
	rHType:        {"hType", []Column{col("h", DomH), col("t", DomT)}, "the type of h's address as allocated (root sites: of the allocated value); interface calls dispatch on it for opaqueType objects"},
	rMethodImpl:   {"methodImpl", []Column{col("t", DomT), col("n", DomN), col("m", DomM)}, "type t implements method n by m"},

	rCallSite:     {"callSite", []Column{col("i", DomI), col("m", DomM)}, "call site i is in function m"},
	rGoCall:       {"goCall", []Column{col("i", DomI)}, "i is a go statement"},
	rDeferCall:    {"deferCall", []Column{col("i", DomI)}, "i is a defer statement"},
	rStaticCall:   {"staticCall", []Column{col("i", DomI), col("callee", DomM)}, "i calls callee"},
	rDynCall:      {"dynCall", []Column{col("i", DomI), col("fn", DomV)}, "i calls the function value fn"},
	rInvoke:       {"invoke", []Column{col("i", DomI), col("recv", DomV), col("n", DomN)}, "i calls method n of the interface value recv"},
	rActual:       {"actual", []Column{col("i", DomI), col("z", DomZ), col("v", DomV)}, "argument z of i is v (invoke: z=0 is the receiver)"},
	rCallResult:   {"callResult", []Column{col("i", DomI), col("z", DomZ), col("v", DomV)}, "v is result z of i: the call itself for one result, the Extract of component z for several"},
	rFormal:       {"formal", []Column{col("m", DomM), col("z", DomZ), col("v", DomV)}, "parameter z of m is v (z=0 is the receiver of methods)"},
	rFreeVar:      {"freeVar", []Column{col("m", DomM), col("z", DomZ), col("v", DomV)}, "free variable z of m is v"},
	rRet:          {"ret", []Column{col("m", DomM), col("z", DomZ), col("v", DomV)}, "m returns v as its result z"},
	rFuncObj:      {"funcObj", []Column{col("h", DomH), col("m", DomM)}, "h is a function value (closure or func object) of m"},
	rClosureBind:  {"closureBind", []Column{col("h", DomH), col("z", DomZ), col("v", DomV)}, "closure site h binds free variable z to v"},
	rSpawnClosure: {"spawnClosure", []Column{col("h", DomH), col("m", DomM)}, "closure site h of m binds a parameter of m of function type, and a go statement of m starts the closure: m starts a goroutine that runs a function its caller gives (WaitGroup.Go, errgroup's Group.Go)"},
	rPanicVal:     {"panicVal", []Column{col("v", DomV)}, "v is panicked"},
	rRecoverVal:   {"recoverVal", []Column{col("v", DomV)}, "v is the result of recover()"},
	rVarFunc:      {"varFunc", []Column{col("v", DomV), col("m", DomM)}, "v belongs to m"},
	rEntry:        {"entry", []Column{col("m", DomM)}, "m is a root or an init of a root's package"},
	rRootParam:    {"rootParam", []Column{col("m", DomM), col("z", DomZ), col("h", DomH)}, "parameter z of root m points to the synthetic site h"},
	rNoBody:       {"noBody", []Column{col("m", DomM)}, "m's code is not analyzed: no Go body (assembly, linkname) or in the runtime"},

	rRead:         {"read", []Column{col("e", DomE), col("ptr", DomV)}, "e reads the locations ptr points to"},
	rWrite:        {"write", []Column{col("e", DomE), col("ptr", DomV)}, "e writes the locations ptr points to"},
	rDeepAccess:   {"deepAccess", []Column{col("e", DomE)}, "e accesses whole struct/array values: the location and all sub-sites below it"},
	rMapRead:      {"mapRead", []Column{col("e", DomE), col("m", DomV)}, "e reads the contents of map m (lookup, range, len)"},
	rMapWrite:     {"mapWrite", []Column{col("e", DomE), col("m", DomV)}, "e writes the contents of map m (update, delete, clear)"},
	rAccessFunc:   {"accessFunc", []Column{col("e", DomE), col("m", DomM)}, "e is in function m"},
	rAtomicAccess: {"atomicAccess", []Column{col("e", DomE)}, "e is a sync/atomic operation"},

	rLockOp:   {"lockOp", []Column{col("i", DomI), col("ptr", DomV), col("z", DomZ)}, "i is a sync.Mutex/RWMutex operation z (Lock* constants) on ptr"},
	rChanOp:   {"chanOp", []Column{col("e", DomE), col("ch", DomV), col("z", DomZ)}, "e is a channel operation z (Chan* constants) on ch"},
	rChanCap:  {"chanCap", []Column{col("h", DomH), col("c", DomZ)}, "channel site h has the constant capacity c"},
	rSyncCall: {"syncCall", []Column{col("i", DomI), col("ptr", DomV), col("z", DomZ)}, "i is a WaitGroup/Once/Cond operation z (Sync* constants) on ptr"},

	rGlobalUse: {"globalUse", []Column{col("v", DomV), col("m", DomM)}, "v, a global's address or a function used as a value, is an operand in m"},
	rCallSig:   {"callSig", []Column{col("i", DomI), col("s", DomS)}, "call site i, not an interface call, calls a function of signature s"},
	rFuncSig:   {"funcSig", []Column{col("m", DomM), col("s", DomS)}, "m has signature s"},

	rTypeAssert: {"typeAssert", []Column{col("to", DomV), col("from", DomV)}, "to = from.(T): to gets the objects of from whose dynamic type passes the assertion (assertType, opaqueType)"},
	rAssertType: {"assertType", []Column{col("to", DomV), col("t", DomT)}, "the type assertion whose result is to succeeds for dynamic type t (one of ifaceType's types)"},
	rIfaceType:  {"ifaceType", []Column{col("v", DomV), col("t", DomT)}, "v is an interface made from a value of type t (MakeInterface): t is the dynamic type of the objects v points to"},
	rOpaqueType: {"opaqueType", []Column{col("h", DomH)}, "h may sit in an interface with a dynamic type no ifaceType gives (the result of a function that is not analyzed): it passes every type assertion"},
	rPtrRecv:    {"ptrRecv", []Column{col("m", DomM)}, "m is a method with a pointer receiver: called through an interface, its receiver is the object the call dispatched on"},
	rValueRecv:  {"valueRecv", []Column{col("m", DomM), col("t", DomT)}, "m is a method whose receiver, a pointer-carrying value of type t, is a parameter: called through an interface, it gets the objects of dynamic type t"},
}

var relByName = func() map[string]rel {
	m := make(map[string]rel, numRels)
	for r := range numRels {
		m[relInfos[r].name] = r
	}
	return m
}()

// relation is a set of tuples stored flat: tuple k is data[k*arity:(k+1)*arity].
type relation struct {
	arity int
	data  []uint32
}

func (r *relation) len() int { return len(r.data) / r.arity }

// sortDedup sorts the tuples lexicographically and removes duplicates.
func (r *relation) sortDedup() {
	switch r.arity {
	case 1:
		slices.Sort(r.data)
		r.data = slices.Compact(r.data)
	case 2:
		n := len(r.data) / 2
		packed := make([]uint64, n)
		for k := range n {
			packed[k] = uint64(r.data[2*k])<<32 | uint64(r.data[2*k+1])
		}
		slices.Sort(packed)
		packed = slices.Compact(packed)
		r.data = r.data[:2*len(packed)]
		for k, p := range packed {
			r.data[2*k] = uint32(p >> 32)
			r.data[2*k+1] = uint32(p)
		}
	case 3:
		n := len(r.data) / 3
		ts := make([][3]uint32, n)
		for k := range n {
			ts[k] = [3]uint32{r.data[3*k], r.data[3*k+1], r.data[3*k+2]}
		}
		slices.SortFunc(ts, func(a, b [3]uint32) int {
			if c := cmp.Compare(a[0], b[0]); c != 0 {
				return c
			}
			if c := cmp.Compare(a[1], b[1]); c != 0 {
				return c
			}
			return cmp.Compare(a[2], b[2])
		})
		ts = slices.Compact(ts)
		r.data = r.data[:3*len(ts)]
		for k, t := range ts {
			copy(r.data[3*k:], t[:])
		}
	default:
		panic("unsupported arity")
	}
}

// Relations returns the names of all relations in a stable order.
func (f *Facts) Relations() []string {
	names := make([]string, numRels)
	for r := range numRels {
		names[r] = relInfos[r].name
	}
	return names
}

// Columns returns the columns of a relation, or nil if there is no such relation.
func (f *Facts) Columns(relName string) []Column {
	r, ok := relByName[relName]
	if !ok {
		return nil
	}
	return slices.Clone(relInfos[r].cols)
}

// Tuples returns the tuples of a relation, sorted, or nil if there is no such
// relation. The tuples share the Facts' storage: do not modify them.
func (f *Facts) Tuples(relName string) [][]uint32 {
	r, ok := relByName[relName]
	if !ok {
		return nil
	}
	rl := &f.rels[r]
	out := make([][]uint32, rl.len())
	for k := range out {
		out[k] = rl.data[k*rl.arity : (k+1)*rl.arity : (k+1)*rl.arity]
	}
	return out
}

// Flat returns the tuples of a relation as one slice, arity numbers per
// tuple, sorted. The slice belongs to the Facts: do not modify it.
func (f *Facts) Flat(relName string) (arity int, data []uint32) {
	r, ok := relByName[relName]
	if !ok {
		return 0, nil
	}
	return f.rels[r].arity, f.rels[r].data
}

// Len returns the number of tuples of a relation.
func (f *Facts) Len(relName string) int {
	r, ok := relByName[relName]
	if !ok {
		return 0
	}
	return f.rels[r].len()
}

// Domains returns the domain names in a stable order.
func (f *Facts) Domains() []string { return domainNames[:] }

// Schema returns Souffle declarations for every domain and relation.
func (f *Facts) Schema() string {
	var b strings.Builder
	b.WriteString("// Base relations extracted by chordgo/pointsto. Ids are dense per domain;\n")
	b.WriteString("// <Domain>.map files describe them.\n\n")
	for d := range numDomains {
		fmt.Fprintf(&b, ".type %s <: number // %d %s\n", domainNames[d], f.Size(Domain(d)), domainDocs[d])
	}
	b.WriteString("\n")
	for r := range numRels {
		info := &relInfos[r]
		fmt.Fprintf(&b, "// %s\n.decl %s(", info.doc, info.name)
		for k, col := range info.cols {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s:%s", col.Name, domainNames[col.Domain])
		}
		fmt.Fprintf(&b, ")\n.input %s\n", info.name)
	}
	return b.String()
}

// WriteDir writes <rel>.facts (tab-separated, sorted), schema.dl and
// <Domain>.map ("id<TAB>description" a line) into dir, creating it.
func (f *Facts) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.dl"), []byte(f.Schema()), 0o666); err != nil {
		return err
	}
	write := func(name string, fill func(w *bufio.Writer)) error {
		file, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(file, 1<<16)
		fill(w)
		if err := w.Flush(); err != nil {
			file.Close()
			return err
		}
		return file.Close()
	}
	var num []byte
	for r := range numRels {
		rl := &f.rels[r]
		err := write(relInfos[r].name+".facts", func(w *bufio.Writer) {
			for k, x := range rl.data {
				num = strconv.AppendUint(num[:0], uint64(x), 10)
				w.Write(num)
				if (k+1)%rl.arity == 0 {
					w.WriteByte('\n')
				} else {
					w.WriteByte('\t')
				}
			}
		})
		if err != nil {
			return err
		}
	}
	for d := range numDomains {
		err := write(domainNames[d]+".map", func(w *bufio.Writer) {
			n := f.Size(Domain(d))
			for id := range n {
				num = strconv.AppendUint(num[:0], uint64(id), 10)
				w.Write(num)
				w.WriteByte('\t')
				w.WriteString(sanitizeLine(f.Desc(Domain(d), uint32(id))))
				w.WriteByte('\n')
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func sanitizeLine(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}
