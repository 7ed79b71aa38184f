package pointsto

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chordgo/chordgo/datalog"

	"golang.org/x/tools/go/ssa"
)

// Sigma gives k per site (Naik's thesis, chapter 4): for an allocation site,
// how many elements its objects' contexts hold (1: the site alone); for a
// call site of a plain function, how many elements the callee's context
// holds (0: the caller's context, Naik's rule; 1: the call site alone).
// Roots are the allocation sites whose objects are split by the test root
// that allocates them, whatever k is (see rootContext).
type Sigma struct {
	Sites        map[uint32]int  // H root site -> k
	Calls        map[uint32]int  // I call site -> k
	Roots        map[uint32]bool // H root sites split by root
	DefaultSite  int
	DefaultCalls int
}

// NewSigma returns the starting point of the demand loop: k = 1 for every
// allocation site and every call site, no site split by root.
func NewSigma() *Sigma {
	return &Sigma{Sites: map[uint32]int{}, Calls: map[uint32]int{}, Roots: map[uint32]bool{}, DefaultSite: 1, DefaultCalls: 1}
}

// Clone returns a copy of s that shares no map with it.
func (s *Sigma) Clone() *Sigma {
	out := NewSigma()
	maps.Copy(out.Sites, s.Sites)
	maps.Copy(out.Calls, s.Calls)
	maps.Copy(out.Roots, s.Roots)
	out.DefaultSite, out.DefaultCalls = s.DefaultSite, s.DefaultCalls
	return out
}

// SiteK returns k for allocation site h.
func (s *Sigma) SiteK(h uint32) int {
	if k, ok := s.Sites[h]; ok {
		return k
	}
	return s.DefaultSite
}

// CallK returns k for call site i.
func (s *Sigma) CallK(i uint32) int {
	if k, ok := s.Calls[i]; ok {
		return k
	}
	return s.DefaultCalls
}

// Ctx is an abstract context (domain C): a sequence of context elements,
// each an allocation site or a call site. Objects are contexts whose first
// element is their site.
type Ctx = uint32

// Epsilon is the empty context, in which package initializers, main.main
// and TestMain run.
const Epsilon Ctx = 0

// Contexts interns contexts as (head element, tail context) pairs. A
// context ends in a base: Epsilon, or the root context of a test root (see
// rootContext), which no cut removes.
type Contexts struct {
	nSites uint32 // elements below nSites are H sites; the rest are call sites
	head   []uint32
	tail   []Ctx
	length []uint8 // elements before the base
	base   []Ctx
	ids    map[uint64]Ctx
}

// rootElem is the head of a root context: rootElem + the root's index in
// Program.Roots.
const rootElem = uint32(1) << 31

func newContexts(nSites int) *Contexts {
	return &Contexts{
		nSites: uint32(nSites),
		head:   []uint32{^uint32(0)},
		tail:   []Ctx{Epsilon},
		length: []uint8{0},
		base:   []Ctx{Epsilon},
		ids:    map[uint64]Ctx{},
	}
}

// rootContext returns the base context of test root ri. A context keeps
// its base through plain calls into functions that may allocate objects of
// a site split by root (Sigma.Roots), and an object of such a site keeps
// the base of the context that allocates it, so its methods and closures
// run on that base too: two tests' objects of a split site are two
// objects. Every other object, and every other callee's context, is on
// Epsilon (kobj.dl states why any such choice is sound).
func (cs *Contexts) rootContext(ri int) Ctx {
	key := uint64(rootElem+uint32(ri)) << 32
	if c, ok := cs.ids[key]; ok {
		return c
	}
	c := Ctx(len(cs.head))
	cs.ids[key] = c
	cs.head = append(cs.head, rootElem+uint32(ri))
	cs.tail = append(cs.tail, Epsilon)
	cs.length = append(cs.length, 0)
	cs.base = append(cs.base, c)
	return c
}

// Root returns the index in Program.Roots of the test root whose objects c
// belongs to, if any.
func (cs *Contexts) Root(c Ctx) (int, bool) {
	b := cs.base[c]
	if b == Epsilon {
		return 0, false
	}
	return int(cs.head[b] - rootElem), true
}

// Len is the number of contexts.
func (cs *Contexts) Len() int { return len(cs.head) }

func (cs *Contexts) intern(elem uint32, tail Ctx) Ctx {
	key := uint64(elem)<<32 | uint64(tail)
	if c, ok := cs.ids[key]; ok {
		return c
	}
	c := Ctx(len(cs.head))
	cs.ids[key] = c
	cs.head = append(cs.head, elem)
	cs.tail = append(cs.tail, tail)
	cs.length = append(cs.length, cs.length[tail]+1)
	cs.base = append(cs.base, cs.base[tail])
	return c
}

// cut returns the first n elements of c, on c's base if keepBase, else on
// Epsilon.
func (cs *Contexts) cut(c Ctx, n int, keepBase bool) Ctx {
	if keepBase || cs.base[c] == Epsilon {
		return cs.prefix(c, n)
	}
	if n <= 0 || cs.length[c] == 0 {
		return Epsilon
	}
	return cs.intern(cs.head[c], cs.cut(cs.tail[c], n-1, false))
}

// prefix returns the first n elements of c, on c's base.
func (cs *Contexts) prefix(c Ctx, n int) Ctx {
	if int(cs.length[c]) <= n {
		return c
	}
	if n <= 0 {
		return cs.base[c]
	}
	return cs.intern(cs.head[c], cs.prefix(cs.tail[c], n-1))
}

// Elements returns c's elements, first to last, without its base; each is
// a site (Site true, an H id) or a call site (an I id).
func (cs *Contexts) Elements(c Ctx) []CtxElem {
	var out []CtxElem
	for ; cs.length[c] > 0; c = cs.tail[c] {
		e := cs.head[c]
		if e < cs.nSites {
			out = append(out, CtxElem{Site: true, ID: e})
		} else {
			out = append(out, CtxElem{ID: e - cs.nSites})
		}
	}
	return out
}

// CtxElem is one element of a context.
type CtxElem struct {
	Site bool   // an allocation site (H); otherwise a call site (I)
	ID   uint32 // the H or I id
}

// Site returns the site of object o (its first element).
func (cs *Contexts) Site(o Ctx) uint32 { return cs.head[o] }

// ctxFacts are the context relations kobj.dl reads, flat.
type ctxFacts struct {
	entryCtx  []uint32 // c, m: entry m runs in c
	newObj    []uint32 // c, h, o
	newObjIn  []uint32 // c, m, h, o: newObj for the allocation sites of function m
	globalObj []uint32 // h, o
	objSite   []uint32 // o, h
	subObj    []uint32 // o, f, o2
	callCtx   []uint32 // c, i, c2
	selfCtx   []uint32 // m
	startCtx  []uint32 // i, o, c2
}

// add adds the facts to db.
func (cf *ctxFacts) add(db *datalog.Database) error {
	for _, r := range []struct {
		name string
		data []uint32
	}{
		{"entryCtx", cf.entryCtx}, {"newObj", cf.newObj}, {"newObjIn", cf.newObjIn}, {"globalObj", cf.globalObj},
		{"objSite", cf.objSite}, {"subObj", cf.subObj}, {"callCtx", cf.callCtx}, {"selfCtx", cf.selfCtx},
		{"startCtx", cf.startCtx},
	} {
		if err := db.AddFlat(r.name, r.data); err != nil {
			return fmt.Errorf("pointsto: %w", err)
		}
	}
	return nil
}

// empty reports whether there are no facts.
func (cf *ctxFacts) empty() bool {
	return len(cf.entryCtx)+len(cf.newObj)+len(cf.newObjIn)+len(cf.globalObj)+
		len(cf.objSite)+len(cf.subObj)+len(cf.callCtx)+len(cf.selfCtx)+len(cf.startCtx) == 0
}

// enumerator makes the contexts kobj.dl needs under sigma as the analysis
// reaches functions, not before: Analyzer.Run alternates kobj.dl runs with
// calls of reached for the pairs (function, context) its reach relation
// gained, until one gives no new fact. Enumerating from the
// context-insensitive call graph instead made every function run in a
// context of every test root that the call graph reaches it from, and
// methods in every object of every site their receiver may point to: 25
// times the contexts kobj.dl reached on go-cache, 8.7 million on bbolt.
//
// The facts made for (m, c), its objects (newObjIn, newObj, objSite,
// subObj) and the contexts of its plain calls (callCtx), are those a
// derivation could use only through reach(c, m): the rules join each with
// reach on c, or with pt in c of one of m's values, which only a reached m
// has, so making them for reached pairs alone derives the same reach, pt,
// hpt and callEdge. (A value of the whole program, a function's V, has pt
// in the contexts of every function that uses it; a call through it from
// a context its function does not run in cannot happen, and gets no
// callCtx now.) A plain call's callee, which kobj.dl then reaches for
// certain, is reached at once, so a run gains no pair through it.
type enumerator struct {
	f     *Facts
	ci    *ciResult
	sigma *Sigma
	cs    *Contexts
	ix    *ctxIndex
	out   ctxFacts // the facts made since the last take
	made  map[Ctx]bool
	ctxs  []map[Ctx]bool // by M: the contexts m was reached in
	queue []reachedFn
	// carry, by M, says whether m's contexts keep their root base: m may
	// reach, in ci.dl's call graph, an allocation of a site split by root.
	// Elsewhere the base could only tell apart objects that drop it.
	carry []bool
}

type reachedFn struct {
	m uint32
	c Ctx
}

// newEnumerator makes the objects of globals, the entries' contexts and
// the objects of their parameters, and reaches the entries.
func newEnumerator(a *Analyzer, sigma *Sigma) *enumerator {
	f, ci := a.Facts, a.ci
	e := &enumerator{
		f: f, ci: ci, sigma: sigma,
		cs:   newContexts(f.Size(DomH)),
		ix:   a.ix,
		made: map[Ctx]bool{},
		ctxs: make([]map[Ctx]bool, f.Size(DomM)),
	}
	e.carry = e.ix.reaching(ci, func(h uint32) bool { return sigma.Roots[h] })
	e.out.selfCtx = e.ix.selfCtxFuncs
	for _, h := range e.ix.globals {
		o := e.cs.intern(h, Epsilon)
		e.out.globalObj = append(e.out.globalObj, h, o)
		e.addObject(h, o)
	}
	entryCtx := entryContexts(f, e.cs, e.carry)
	for _, m := range e.ix.entries {
		c := entryCtx[m]
		e.out.entryCtx = append(e.out.entryCtx, c, m)
		for _, h := range e.ix.rootParams[m] {
			e.newObject(c, h)
		}
		e.reached(m, c)
	}
	return e
}

// take returns the facts made since the last take.
func (e *enumerator) take() ctxFacts {
	out := e.out
	e.out = ctxFacts{}
	return out
}

// addObject registers object o of site h with its sub-objects, and the
// context in which each go statement (or call of a spawn helper,
// ci.dl's startRecvSite) that may call a pointer-receiver method on o
// runs it: the call site, then o (kobj.dl's startCtx). ci.dl's points-to
// bounds kobj.dl's, so every receiver object such a call may have gets
// its context.
func (e *enumerator) addObject(h uint32, o Ctx) {
	e.out.objSite = append(e.out.objSite, o, h)
	for _, i := range e.ci.startRecv[h] {
		e.out.startCtx = append(e.out.startCtx, i, o, e.cs.intern(e.cs.nSites+i, o))
	}
	for _, sub := range e.ix.subSites[h] {
		o2 := e.cs.intern(sub.h2, e.cs.tail[o])
		e.out.subObj = append(e.out.subObj, o, sub.f, o2)
		e.addObject(sub.h2, o2)
	}
}

func (e *enumerator) newObject(c Ctx, h uint32) Ctx {
	n := e.sigma.SiteK(h) - 1
	if e.ix.spawnSite[h] {
		// An object a spawn helper (or a function literal in it)
		// allocates keeps the helper's whole context (its call site and
		// receiver, startCtx): the closure it starts and the variables
		// that closure captures, f among them, are then the call's own,
		// and the goroutine of one call runs that call's function alone.
		// Bounded: the helper's contexts are, and function literals nest
		// only as deep as the source does.
		n = int(e.cs.length[c])
	}
	o := e.cs.intern(h, e.cs.cut(c, n, e.sigma.Roots[h]))
	e.out.newObj = append(e.out.newObj, c, h, o)
	if !e.made[o] {
		e.made[o] = true
		e.addObject(h, o)
	}
	return o
}

// reached makes the facts of function m in context c, once, and of the
// plain callees it reaches for certain.
func (e *enumerator) reached(m uint32, c Ctx) {
	e.push(m, c)
	for len(e.queue) > 0 {
		w := e.queue[len(e.queue)-1]
		e.queue = e.queue[:len(e.queue)-1]
		e.expand(w)
	}
}

func (e *enumerator) push(m uint32, c Ctx) {
	if e.ctxs[m] == nil {
		e.ctxs[m] = map[Ctx]bool{}
	}
	if !e.ctxs[m][c] {
		e.ctxs[m][c] = true
		e.queue = append(e.queue, reachedFn{m, c})
	}
}

func (e *enumerator) expand(w reachedFn) {
	cs, ix := e.cs, e.ix
	for _, h := range ix.allocSites[w.m] {
		o := e.newObject(w.c, h)
		e.out.newObjIn = append(e.out.newObjIn, w.c, w.m, h, o)
	}
	for _, i := range ix.callsIn[w.m] {
		for _, m2 := range e.ci.callees[i] {
			plain := ix.plain(i, m2)
			if !plain && !(ix.funcValue[m2] && ix.dynamic[i]) {
				continue // runs in the context of a receiver or closure object, which exists
			}
			// A plain call, or a call of a function (not a closure)
			// through a function value: the callee runs in a context of
			// its call site.
			k := e.sigma.CallK(i)
			if ix.callback[i] {
				k = 0 // the runtime calls it later from where it was registered
			}
			c2 := w.c
			switch {
			case ix.init[m2]:
				// A package initializer runs once, in the empty
				// context, as the roots' inits do: contexts could
				// only repeat its facts.
				c2 = Epsilon
			case k > 0:
				c2 = cs.intern(cs.nSites+i, cs.cut(w.c, k-1, e.carry[m2]))
			}
			e.out.callCtx = append(e.out.callCtx, w.c, i, c2)
			if plain {
				e.push(m2, c2)
			}
		}
	}
}

// ctxIndex holds the base relations the enumerator walks, indexed by id.
type ctxIndex struct {
	allocSites   [][]uint32 // function -> root sites it allocates (not globals)
	callsIn      [][]uint32 // function -> call sites
	static       map[uint32]uint32
	subSites     [][]struct{ f, h2 uint32 }
	globals      []uint32
	entries      []uint32
	rootParams   map[uint32][]uint32
	selfCtx      []bool
	selfCtxFuncs []uint32
	init         []bool          // package initializers and init functions
	funcValue    []bool          // functions (not closures) used as values: their objects are global
	dynamic      map[uint32]bool // dynCall sites
	callback     map[uint32]bool // synthetic go sites: the runtime calls a callback registered there
	spawnSite    map[uint32]bool // sites a spawn helper (spawnClosure), or a function literal in it, allocates
}

func newCtxIndex(f *Facts, ci *ciResult) *ctxIndex {
	nM := f.Size(DomM)
	ix := &ctxIndex{
		allocSites: make([][]uint32, nM),
		callsIn:    make([][]uint32, nM),
		static:     map[uint32]uint32{},
		subSites:   make([][]struct{ f, h2 uint32 }, f.Size(DomH)),
		rootParams: map[uint32][]uint32{},
		selfCtx:    make([]bool, nM),
		init:       make([]bool, nM),
		funcValue:  make([]bool, nM),
		dynamic:    map[uint32]bool{},
		callback:   map[uint32]bool{},
		spawnSite:  map[uint32]bool{},
	}
	each := func(rel string, fn func(t []uint32)) {
		arity, data := f.Flat(rel)
		for off := 0; off < len(data); off += arity {
			fn(data[off : off+arity])
		}
	}
	isGlobal := make([]bool, f.Size(DomH))
	each("global", func(t []uint32) { isGlobal[t[0]] = true; ix.globals = append(ix.globals, t[0]) })
	funcOfVar := map[uint32][]uint32{}
	each("varFunc", func(t []uint32) { funcOfVar[t[0]] = append(funcOfVar[t[0]], t[1]) })
	each("alloc", func(t []uint32) {
		if !isGlobal[t[1]] {
			for _, m := range funcOfVar[t[0]] {
				ix.allocSites[m] = append(ix.allocSites[m], t[1])
			}
		}
	})
	each("callSite", func(t []uint32) { ix.callsIn[t[1]] = append(ix.callsIn[t[1]], t[0]) })
	each("staticCall", func(t []uint32) { ix.static[t[0]] = t[1] })
	each("dynCall", func(t []uint32) {
		ix.dynamic[t[0]] = true
		if i := t[0]; i > 0 && f.calls[i-1] == f.calls[i] {
			ix.callback[i] = true
		}
	})
	each("funcObj", func(t []uint32) {
		if isGlobal[t[0]] {
			ix.funcValue[t[1]] = true
		}
	})
	each("subSite", func(t []uint32) {
		ix.subSites[t[0]] = append(ix.subSites[t[0]], struct{ f, h2 uint32 }{t[1], t[2]})
	})
	each("entry", func(t []uint32) { ix.entries = append(ix.entries, t[0]) })
	each("rootParam", func(t []uint32) { ix.rootParams[t[0]] = append(ix.rootParams[t[0]], t[2]) })
	for m := range nM {
		ix.init[m] = isInit(f.Func(uint32(m)))
		if hasPointerReceiver(f.Func(uint32(m))) {
			ix.selfCtx[m] = true
			ix.selfCtxFuncs = append(ix.selfCtxFuncs, uint32(m))
		}
	}
	for m := range ix.allocSites {
		slices.Sort(ix.allocSites[m])
		ix.allocSites[m] = slices.Compact(ix.allocSites[m])
	}
	each("spawnClosure", func(t []uint32) { ix.markSpawnSites(f, f.Func(t[1])) })
	return ix
}

// markSpawnSites marks the sites that fn and the function literals in it
// allocate as spawnSite.
func (ix *ctxIndex) markSpawnSites(f *Facts, fn *ssa.Function) {
	if m, ok := f.FuncID(fn); ok {
		for _, h := range ix.allocSites[m] {
			ix.spawnSite[h] = true
		}
	}
	for _, lit := range fn.AnonFuncs {
		ix.markSpawnSites(f, lit)
	}
}

// plain reports whether the call at i of m2 is a plain call: static, of a
// function that does not run in its receiver's context.
func (ix *ctxIndex) plain(i, m2 uint32) bool {
	static, ok := ix.static[i]
	return ok && static == m2 && !ix.selfCtx[m2]
}

// makesContext reports whether the enumerator runs m2, called at i, in a
// context that begins with i (expand): a plain call, or a call of a
// function through a function value, except the callbacks the runtime runs
// in their registrar's context and the package initializers, which run in
// the empty one.
func (ix *ctxIndex) makesContext(i, m2 uint32) bool {
	return (ix.plain(i, m2) || ix.funcValue[m2] && ix.dynamic[i]) && !ix.callback[i] && !ix.init[m2]
}

// isInit reports whether fn is a package initializer or one of a package's
// func init() (init#1, ...): each runs once.
func isInit(fn *ssa.Function) bool {
	if fn == nil || fn.Parent() != nil || fn.Signature.Recv() != nil {
		return false
	}
	return fn.Synthetic == "package initializer" || fn.Synthetic == "" && strings.HasPrefix(fn.Name(), "init#")
}

// entryContexts gives each entry the context it runs in: a test,
// benchmark, fuzz target or example that carries its root base (carry) its
// root context; the others, and main.main, TestMain and the package
// initializers, which run before the tests and whose objects every test
// may share, Epsilon.
func entryContexts(f *Facts, cs *Contexts, carry []bool) map[uint32]Ctx {
	out := map[uint32]Ctx{}
	for ri, root := range f.Prog.Roots {
		if m, ok := f.funcID[root.Func]; ok && carry[m] && ownsContext(root) {
			out[m] = cs.rootContext(ri)
		}
	}
	return out
}

// ownsContext reports whether root may run in a root context of its own:
// tests, benchmarks, fuzz targets and examples, which the test runner runs
// one after another.
func ownsContext(root Root) bool { return root.Kind != Main && root.Kind != TestMain }

// TestEntries returns the functions (M) of the roots that may run in a root
// context of their own, sorted.
func (f *Facts) TestEntries() []uint32 {
	var out []uint32
	for _, root := range f.Prog.Roots {
		if m, ok := f.funcID[root.Func]; ok && ownsContext(root) {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reaching returns, by M, whether the function may reach, in ci's call
// graph (itself included), an allocation of a root site that split holds
// for.
func (ix *ctxIndex) reaching(ci *ciResult, split func(h uint32) bool) []bool {
	out := make([]bool, len(ix.allocSites))
	var work []uint32
	for m, sites := range ix.allocSites {
		if slices.ContainsFunc(sites, split) {
			out[m] = true
			work = append(work, uint32(m))
		}
	}
	if len(work) == 0 {
		return out
	}
	callers := make([][]uint32, len(ix.allocSites))
	for m, calls := range ix.callsIn {
		for _, i := range calls {
			for _, m2 := range ci.callees[i] {
				callers[m2] = append(callers[m2], uint32(m))
			}
		}
	}
	// Termination: a function is queued once, when it is first marked.
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, caller := range callers[m] {
			if !out[caller] {
				out[caller] = true
				work = append(work, caller)
			}
		}
	}
	return out
}
