package pointsto

import (
	"time"

	"github.com/bits-and-blooms/bitset"
)

// refSolver is a context-insensitive, field-sensitive Andersen analysis over the
// base relations. It is the tests' oracle that the facts carry enough to
// compute points-to sets, and a reference for the meaning of each relation
// (the Datalog rules refine it with contexts). Every function is considered
// reachable.
//
// Nodes 0..|V|-1 are values, |V|+h is the contents of location h.
type refSolver struct {
	f      *Facts
	nV     int
	pts    []bitset.BitSet
	done   []bitset.BitSet // the part of pts already propagated
	succ   [][]uint32
	hasE   map[[2]uint32]bool
	work   []uint32
	inWork []bool

	// constraints by base value
	load, store                 [][]uint32
	fieldAddr, contentLoad      [][][2]uint32 // (to, f)
	contentStore                [][][2]uint32 // (f, from)
	copyDst, copySrc            [][][2]uint32 // (other, f)
	copyLoadTo, copyLoadPtr     [][]uint32    // copyLoad by to: ptrs; by ptr: tos
	copyStorePtr, copyStoreFrom [][]uint32    // copyStore by ptr: froms; by from: ptrs
	paired                      map[[2]uint32]bool
	childF                      [][][2]uint32 // by H: (f, child)
	dynCall                     [][]uint32    // call sites
	invoke                      [][][2]uint32 // (i, n)

	sub       map[[2]uint32]uint32 // (h, f) -> h2
	children  [][]uint32
	actuals   [][][2]uint32 // by I: (z, v)
	results   [][][2]uint32 // by I: (z, v)
	formals   [][][2]uint32 // by M: (z, v)
	freeVars  [][][2]uint32 // by M
	rets      [][][2]uint32 // by M: (z, v)
	funcObj   [][]uint32    // by H
	binds     [][][2]uint32 // by H: (z, v)
	hTypes    [][]uint32    // by H
	impls     map[[2]uint32][]uint32
	connected map[[2]uint32]bool

	// Callees found for each call site.
	callees map[uint32]map[uint32]bool

	deadline time.Time // stop early (for experiments); zero: run to the fixed point

	// filterRecv: an interface method's receiver gets only the objects the
	// call dispatched on it (experiment; not sound for boxes of values with pointers).
	filterRecv bool
	isInvoke   map[uint32]bool
	// skip drops tuples (experiments only).
	skip func(rel string, t []uint32) bool
}

func newRefSolver(f *Facts) *refSolver { return newRefSolverOpts(f, time.Time{}, false, nil) }

func newRefSolverOpts(f *Facts, deadline time.Time, filterRecv bool, skip func(rel string, t []uint32) bool) *refSolver {
	nV, nH := f.Size(DomV), f.Size(DomH)
	nI, nM := f.Size(DomI), f.Size(DomM)
	n := nV + nH
	s := &refSolver{
		f: f, nV: nV,
		pts: make([]bitset.BitSet, n), done: make([]bitset.BitSet, n),
		succ: make([][]uint32, n), hasE: make(map[[2]uint32]bool), inWork: make([]bool, n),
		load: make([][]uint32, nV), store: make([][]uint32, nV),
		fieldAddr: make([][][2]uint32, nV), contentLoad: make([][][2]uint32, nV),
		contentStore: make([][][2]uint32, nV), copyDst: make([][][2]uint32, nV), copySrc: make([][][2]uint32, nV),
		copyLoadTo: make([][]uint32, nV), copyLoadPtr: make([][]uint32, nV),
		copyStorePtr: make([][]uint32, nV), copyStoreFrom: make([][]uint32, nV),
		paired: make(map[[2]uint32]bool), childF: make([][][2]uint32, nH),
		dynCall: make([][]uint32, nV), invoke: make([][][2]uint32, nV),
		sub: make(map[[2]uint32]uint32), children: make([][]uint32, nH),
		actuals: make([][][2]uint32, nI), results: make([][][2]uint32, nI),
		formals: make([][][2]uint32, nM), freeVars: make([][][2]uint32, nM), rets: make([][][2]uint32, nM),
		funcObj: make([][]uint32, nH), binds: make([][][2]uint32, nH), hTypes: make([][]uint32, nH),
		impls: make(map[[2]uint32][]uint32), connected: make(map[[2]uint32]bool),
		callees: make(map[uint32]map[uint32]bool), deadline: deadline,
		filterRecv: filterRecv, isInvoke: make(map[uint32]bool), skip: skip,
	}
	each0 := func(rel string, fn func(t []uint32)) {
		ar, data := f.Flat(rel)
		for k := 0; k < len(data); k += ar {
			fn(data[k : k+ar])
		}
	}
	each0("invoke", func(t []uint32) { s.isInvoke[t[0]] = true })
	each := func(rel string, fn func(t []uint32)) {
		ar, data := f.Flat(rel)
		for k := 0; k < len(data); k += ar {
			if s.skip != nil && s.skip(rel, data[k:k+ar]) {
				continue
			}
			fn(data[k : k+ar])
		}
	}
	each("subSite", func(t []uint32) {
		s.sub[[2]uint32{t[0], t[1]}] = t[2]
		s.children[t[0]] = append(s.children[t[0]], t[2])
		s.childF[t[0]] = append(s.childF[t[0]], [2]uint32{t[1], t[2]})
	})
	each("copyLoad", func(t []uint32) {
		s.copyLoadTo[t[0]] = append(s.copyLoadTo[t[0]], t[1])
		s.copyLoadPtr[t[1]] = append(s.copyLoadPtr[t[1]], t[0])
	})
	each("copyStore", func(t []uint32) {
		s.copyStorePtr[t[0]] = append(s.copyStorePtr[t[0]], t[1])
		s.copyStoreFrom[t[1]] = append(s.copyStoreFrom[t[1]], t[0])
	})
	each("load", func(t []uint32) { s.load[t[1]] = append(s.load[t[1]], t[0]) })
	each("store", func(t []uint32) { s.store[t[0]] = append(s.store[t[0]], t[1]) })
	each("fieldAddr", func(t []uint32) { s.fieldAddr[t[1]] = append(s.fieldAddr[t[1]], [2]uint32{t[0], t[2]}) })
	each("contentLoad", func(t []uint32) { s.contentLoad[t[1]] = append(s.contentLoad[t[1]], [2]uint32{t[0], t[2]}) })
	each("contentStore", func(t []uint32) { s.contentStore[t[0]] = append(s.contentStore[t[0]], [2]uint32{t[1], t[2]}) })
	each("copyContents", func(t []uint32) {
		s.copyDst[t[0]] = append(s.copyDst[t[0]], [2]uint32{t[1], t[2]})
		s.copySrc[t[1]] = append(s.copySrc[t[1]], [2]uint32{t[0], t[2]})
	})
	each("dynCall", func(t []uint32) { s.dynCall[t[1]] = append(s.dynCall[t[1]], t[0]) })
	each("invoke", func(t []uint32) { s.invoke[t[1]] = append(s.invoke[t[1]], [2]uint32{t[0], t[2]}) })
	each("actual", func(t []uint32) { s.actuals[t[0]] = append(s.actuals[t[0]], [2]uint32{t[1], t[2]}) })
	each("callResult", func(t []uint32) { s.results[t[0]] = append(s.results[t[0]], [2]uint32{t[1], t[2]}) })
	each("formal", func(t []uint32) { s.formals[t[0]] = append(s.formals[t[0]], [2]uint32{t[1], t[2]}) })
	each("freeVar", func(t []uint32) { s.freeVars[t[0]] = append(s.freeVars[t[0]], [2]uint32{t[1], t[2]}) })
	each("ret", func(t []uint32) { s.rets[t[0]] = append(s.rets[t[0]], [2]uint32{t[1], t[2]}) })
	each("funcObj", func(t []uint32) { s.funcObj[t[0]] = append(s.funcObj[t[0]], t[1]) })
	each("closureBind", func(t []uint32) { s.binds[t[0]] = append(s.binds[t[0]], [2]uint32{t[1], t[2]}) })
	each("hType", func(t []uint32) { s.hTypes[t[0]] = append(s.hTypes[t[0]], t[1]) })
	each("methodImpl", func(t []uint32) { k := [2]uint32{t[0], t[1]}; s.impls[k] = append(s.impls[k], t[2]) })

	each("alloc", func(t []uint32) { s.add(t[0], t[1]) })
	each("move", func(t []uint32) { s.edge(t[1], t[0]) })
	each("typeAssert", func(t []uint32) { s.edge(t[1], t[0]) }) // unfiltered: an upper bound
	each("staticCall", func(t []uint32) { s.connect(t[0], t[1]) })
	each("rootParam", func(t []uint32) {
		for _, zv := range s.formals[t[0]] {
			if zv[0] == t[1] {
				s.add(zv[1], t[2])
			}
		}
	})
	// Closures: the free variables of m get what its closure sites bind.
	for h := range s.binds {
		for _, m := range s.funcObj[h] {
			for _, b := range s.binds[h] {
				for _, fv := range s.freeVars[m] {
					if fv[0] == b[0] {
						s.edge(b[1], fv[1])
					}
				}
			}
		}
	}
	var panics, recovers []uint32
	each("panicVal", func(t []uint32) { panics = append(panics, t[0]) })
	each("recoverVal", func(t []uint32) { recovers = append(recovers, t[0]) })
	for _, p := range panics {
		for _, r := range recovers {
			s.edge(p, r)
		}
	}
	s.run()
	return s
}

func (s *refSolver) content(h uint32) uint32 { return uint32(s.nV) + h }

func (s *refSolver) push(n uint32) {
	if !s.inWork[n] {
		s.inWork[n] = true
		s.work = append(s.work, n)
	}
}

func (s *refSolver) add(n, h uint32) {
	if !s.pts[n].Test(uint(h)) {
		s.pts[n].Set(uint(h))
		s.push(n)
	}
}

func (s *refSolver) edge(from, to uint32) {
	k := [2]uint32{from, to}
	if from == to || s.hasE[k] {
		return
	}
	s.hasE[k] = true
	s.succ[from] = append(s.succ[from], to)
	if s.pts[from].Any() {
		s.pts[to].InPlaceUnion(&s.pts[from])
		s.push(to)
	}
}

// below returns h and all sub-sites below it.
func (s *refSolver) below(h uint32) []uint32 {
	out := []uint32{h}
	for k := 0; k < len(out); k++ {
		out = append(out, s.children[out[k]]...)
	}
	return out
}

func (s *refSolver) connect(i, m uint32) {
	k := [2]uint32{i, m}
	if s.connected[k] {
		return
	}
	s.connected[k] = true
	if s.callees[i] == nil {
		s.callees[i] = make(map[uint32]bool)
	}
	s.callees[i][m] = true
	for _, a := range s.actuals[i] {
		if s.filterRecv && a[0] == 0 && s.isInvoke[i] {
			continue
		}
		for _, p := range s.formals[m] {
			if a[0] == p[0] {
				s.edge(a[1], p[1])
			}
		}
	}
	for _, r := range s.results[i] {
		for _, v := range s.rets[m] {
			if v[0] == r[0] {
				s.edge(v[1], r[1])
			}
		}
	}
}

func (s *refSolver) run() {
	for k := 0; len(s.work) > 0; k++ {
		if k%4096 == 0 && !s.deadline.IsZero() && time.Now().After(s.deadline) {
			return
		}
		n := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		s.inWork[n] = false
		delta := s.pts[n].Difference(&s.done[n])
		if !delta.Any() {
			continue
		}
		s.done[n].InPlaceUnion(delta)
		for _, to := range s.succ[n] {
			if !s.pts[to].IsSuperSet(delta) {
				s.pts[to].InPlaceUnion(delta)
				s.push(to)
			}
		}
		if int(n) >= s.nV {
			continue
		}
		for hu, ok := delta.NextSet(0); ok; hu, ok = delta.NextSet(hu + 1) {
			s.object(n, uint32(hu))
		}
	}
}

// object applies the constraints on value v to a new object h of v.
func (s *refSolver) object(v, h uint32) {
	for _, to := range s.load[v] {
		s.edge(s.content(h), to)
	}
	for _, from := range s.store[v] {
		s.edge(from, s.content(h))
	}
	for _, tf := range s.fieldAddr[v] {
		if h2, ok := s.sub[[2]uint32{h, tf[1]}]; ok {
			s.add(tf[0], h2)
		}
	}
	for _, tf := range s.contentLoad[v] {
		if h2, ok := s.sub[[2]uint32{h, tf[1]}]; ok {
			for _, h3 := range s.below(h2) {
				s.edge(s.content(h3), tf[0])
			}
		}
	}
	for _, ff := range s.contentStore[v] {
		if h2, ok := s.sub[[2]uint32{h, ff[0]}]; ok {
			for _, h3 := range s.below(h2) {
				s.edge(ff[1], s.content(h3))
			}
		}
	}
	copySub := func(dst, src uint32, f uint32) {
		hd, ok1 := s.sub[[2]uint32{dst, f}]
		hs, ok2 := s.sub[[2]uint32{src, f}]
		if ok1 && ok2 {
			s.pair(hd, hs)
		}
	}
	for _, of := range s.copyDst[v] { // v is dst, of[0] is src
		for hs, ok := s.pts[of[0]].NextSet(0); ok; hs, ok = s.pts[of[0]].NextSet(hs + 1) {
			copySub(h, uint32(hs), of[1])
		}
	}
	for _, of := range s.copySrc[v] { // v is src, of[0] is dst
		for hd, ok := s.pts[of[0]].NextSet(0); ok; hd, ok = s.pts[of[0]].NextSet(hd + 1) {
			copySub(uint32(hd), h, of[1])
		}
	}
	// copyLoad(to, ptr): to's trees get copies of ptr's objects; copyStore(ptr,
	// from): ptr's objects get copies of from's trees.
	each := func(v uint32, fn func(h uint32)) {
		for x, ok := s.pts[v].NextSet(0); ok; x, ok = s.pts[v].NextSet(x + 1) {
			fn(uint32(x))
		}
	}
	for _, ptr := range s.copyLoadTo[v] {
		each(ptr, func(o uint32) { s.pair(h, o) })
	}
	for _, to := range s.copyLoadPtr[v] {
		each(to, func(tree uint32) { s.pair(tree, h) })
	}
	for _, from := range s.copyStorePtr[v] {
		each(from, func(tree uint32) { s.pair(h, tree) })
	}
	for _, ptr := range s.copyStoreFrom[v] {
		each(ptr, func(o uint32) { s.pair(o, h) })
	}
	for _, i := range s.dynCall[v] {
		for _, m := range s.funcObj[h] {
			s.connect(i, m)
		}
	}
	for _, in := range s.invoke[v] {
		for _, t := range s.hTypes[h] {
			for _, m := range s.impls[[2]uint32{t, in[1]}] {
				s.connect(in[0], m)
				if s.filterRecv {
					for _, p := range s.formals[m] {
						if p[0] == 0 {
							s.add(p[1], h)
						}
					}
				}
			}
		}
	}
}

// pair makes location d a copy of location s, and their sub-sites of the
// same fields copies of each other, recursively.
func (s *refSolver) pair(d, src uint32) {
	k := [2]uint32{d, src}
	if d == src || s.paired[k] {
		return
	}
	s.paired[k] = true
	s.edge(s.content(src), s.content(d))
	for _, fc := range s.childF[d] {
		if c2, ok := s.sub[[2]uint32{src, fc[0]}]; ok {
			s.pair(fc[1], c2)
		}
	}
}

// pointsTo returns the sites v may point to.
func (s *refSolver) pointsTo(v uint32) []uint32 {
	var out []uint32
	for h, ok := s.pts[v].NextSet(0); ok; h, ok = s.pts[v].NextSet(h + 1) {
		out = append(out, uint32(h))
	}
	return out
}

// contents returns the sites location h may hold pointers to.
func (s *refSolver) contents(h uint32) []uint32 { return s.pointsTo(s.content(h)) }
