package datalog

import (
	"container/heap"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A plan evaluates one rule, or one semi-naive variant of a recursive rule:
// a sequence of steps, each binding or checking variables held in registers,
// ending in an insertion into the head relation.
type plan struct {
	rule  *Rule
	steps []step
	head  []operand
	out   *relation
	regs  []uint32
	buf   []uint32
	stats *RuleStats
	db    *Database
	// deferred: the plan is a worker's part of a split evaluation
	// (runSplit), which collects the head tuples not in out yet in
	// derived instead of inserting them, each once, in the order first
	// derived: a join may derive one tuple from many of its first step's
	// tuples (bbolt's tests: readCell(g, p) of escape/instance.dl).
	deferred bool
	derived  *relation
}

type stepKind uint8

const (
	stepScan    stepKind = iota // iterate over a range of tuples
	stepLookup                  // iterate over the tuples an index finds for bound columns
	stepMember                  // all columns bound: test membership
	stepNegated                 // test that no tuple matches the bound columns
	stepCompare
)

// operand is a register (reg >= 0) or a constant.
type operand struct {
	reg int
	val uint32
}

func (o operand) get(regs []uint32) uint32 {
	if o.reg >= 0 {
		return regs[o.reg]
	}
	return o.val
}

type argKind uint8

const (
	argBind  argKind = iota // store the column's value in reg
	argCheck                // the column must equal reg (a variable bound before)
	argConst                // the column must equal val
)

type argOp struct {
	kind argKind
	col  int
	reg  int
	val  uint32
}

type step struct {
	kind  stepKind
	rel   *relation
	delta bool       // the range is the relation's current delta
	ix    *hashIndex // stepLookup, stepNegated with unbound columns
	key   []operand  // index key (stepLookup, stepNegated) or whole tuple (stepMember, stepNegated)
	args  []argOp    // binds and checks for stepScan and stepLookup
	tuple []uint32   // scratch for stepMember
	cmp   CmpOp      // stepCompare
	l, r  operand    // stepCompare
	typ   BaseKind   // stepCompare: how to order values
	keyv  []uint32   // scratch for index keys
	// exists: the step binds no variable, so one matching tuple is enough
	// (a semi-join); more would only repeat the same derivations.
	exists bool
}

// ranges of tuple ids visible to the current evaluation, per relation.
type ranges struct {
	lo, hi []uint32 // delta = [lo, hi); everything = [0, hi)
}

// compile builds the plan for rule r; deltaAtom is the index in r.Body of the
// atom read from the delta, or -1. Its time is linear in the body (times the
// logarithm of the number of atoms): generated rules can have thousands.
func (db *Database) compile(r *Rule, deltaAtom int, stats *RuleStats) *plan {
	p := &plan{rule: r, out: db.rels[r.Head.Rel.index], stats: stats, db: db}
	regs := map[string]int{}
	bound := func(t Term) bool {
		_, ok := regs[t.Name]
		return t.Kind == NumberTerm || t.Kind == SymbolTerm || t.Kind == VarTerm && ok
	}
	operandOf := func(t Term, typ *Type) operand {
		switch t.Kind {
		case VarTerm:
			return operand{reg: regs[t.Name]}
		case NumberTerm:
			return operand{reg: -1, val: uint32(t.Num)}
		}
		return operand{reg: -1, val: db.Intern(typ, t.Name)}
	}
	varTypes := map[string]*Type{}
	if len(r.Comparisons) > 0 {
		for _, a := range r.Body {
			for i, t := range a.Args {
				if _, ok := varTypes[t.Name]; t.Kind == VarTerm && !ok {
					varTypes[t.Name] = a.Rel.Attrs[i].Type
				}
			}
		}
	}
	// Negations and comparisons (checks) run as soon as their variables
	// are bound, in source order, negations first. unbound counts each
	// check's variables not bound yet; waiting lists, per variable, the
	// checks that count it.
	var checks []int // body index of a negation, or -1-i for comparison i
	var unbound []int
	waiting := map[string][]int{}
	addCheck := func(k int, terms []Term) {
		c := len(checks)
		checks = append(checks, k)
		n := 0
		for _, t := range terms {
			if t.Kind == VarTerm && addUse(waiting, t.Name, c) {
				n++
			}
		}
		unbound = append(unbound, n)
	}
	for i, a := range r.Body {
		if a.Negated {
			addCheck(i, a.Args)
		}
	}
	for i, c := range r.Comparisons {
		addCheck(-1-i, []Term{c.Left, c.Right})
	}
	place := func(k int) {
		if k >= 0 {
			p.steps = append(p.steps, db.negationStep(r.Body[k], operandOf))
			return
		}
		c := r.Comparisons[-1-k]
		typ := comparisonType(c, varTypes, db.prog.Type("symbol"))
		s := step{kind: stepCompare, cmp: c.Op, typ: NumberKind}
		if typ != nil {
			s.typ = typ.Kind
		}
		s.l, s.r = operandOf(c.Left, typ), operandOf(c.Right, typ)
		p.steps = append(p.steps, s)
	}
	for c, n := range unbound {
		if n == 0 {
			place(checks[c])
		}
	}

	// The positive atoms other than the delta atom wait in a queue ordered
	// by cost; an atom's cost changes only when one of its variables is
	// bound, so only those atoms are estimated again (dirty).
	q := &atomQueue{cost: make([]float64, len(r.Body)), pos: make([]int, len(r.Body))}
	atomsOf := map[string][]int{}
	dirty := []int{}
	isDirty := make([]bool, len(r.Body))
	for i, a := range r.Body {
		q.pos[i] = -1
		if a.Negated || i == deltaAtom {
			continue
		}
		dirty = append(dirty, i)
		isDirty[i] = true
		for _, t := range a.Args {
			if t.Kind == VarTerm {
				addUse(atomsOf, t.Name, i)
			}
		}
	}
	left := len(dirty)
	var newVars []string
	var ready []int
	for next := deltaAtom; next >= 0 || left > 0; next = -1 {
		if next < 0 {
			for _, i := range dirty {
				q.cost[i] = db.atomCost(r.Body[i], bound)
				isDirty[i] = false
				if q.pos[i] >= 0 {
					heap.Fix(q, q.pos[i])
				} else {
					heap.Push(q, i)
				}
			}
			dirty = dirty[:0]
			next = heap.Pop(q).(int)
			left--
		}
		a := r.Body[next]
		newVars = newVars[:0]
		for _, t := range a.Args {
			if t.Kind == VarTerm && !bound(t) && !slices.Contains(newVars, t.Name) {
				newVars = append(newVars, t.Name)
			}
		}
		p.steps = append(p.steps, db.atomStep(a, next == deltaAtom, regs, bound, operandOf))
		for _, v := range newVars {
			for _, i := range atomsOf[v] {
				if q.pos[i] >= 0 && !isDirty[i] {
					dirty = append(dirty, i)
					isDirty[i] = true
				}
			}
			for _, c := range waiting[v] {
				if unbound[c]--; unbound[c] == 0 {
					ready = append(ready, c)
				}
			}
		}
		slices.Sort(ready)
		for _, c := range ready {
			place(checks[c])
		}
		ready = ready[:0]
	}
	for i, t := range r.Head.Args {
		p.head = append(p.head, operandOf(t, r.Head.Rel.Attrs[i].Type))
	}
	p.regs = make([]uint32, len(regs))
	p.buf = make([]uint32, len(r.Head.Args))
	return p
}

// planReuse is the factor by which every relation of a rule's body may
// have grown (or shrunk) since its plan was made for the plan to be
// reused (planFor): about the error of the estimates themselves, which
// count keys, not how many tuples match them.
const planReuse = 2

// A madePlan is a plan kept for reuse, with the tuples each atom of its
// rule's body had when the plan was made (the atoms whose cost it
// estimated: the positive ones but the delta atom).
type madePlan struct {
	p     *plan
	sizes []int
}

// planFor returns the plan of rule r with body atom delta reading the
// delta, made by compile or reused: a plan made earlier is
// reused while every relation it estimated holds within a factor of
// planReuse of the tuples it held then, as the estimates that chose its
// order would be about the same. Making a plan again for each iteration
// was a fifth of kobj.dl's time on the race suite, most iterations adding
// few tuples. Reuse changes speed, never the results: every order of a
// rule's atoms joins the same tuples (those visible in the evaluation's
// ranges) and derives the same set, which the semi-naive iterations then
// read as a set; only the order in which an evaluation inserts its tuples,
// so their ids, depends on the plan, and that order is still fixed by the
// program and its facts (the sizes decide), not by timing or cores.
func (db *Database) planFor(r *Rule, delta int, stats *RuleStats) *plan {
	key := [2]int{r.index, delta}
	if m := db.plans[key]; m != nil && db.sizesWithin(r, delta, m.sizes) {
		// Bring the indexes the plan reads up to date, as compile would;
		// index returns the one current (Release may have dropped it).
		for i := range m.p.steps {
			if s := &m.p.steps[i]; s.ix != nil {
				s.ix = s.rel.index(s.ix.cols)
			}
		}
		return m.p
	}
	m := &madePlan{p: db.compile(r, delta, stats)}
	for _, a := range r.Body {
		m.sizes = append(m.sizes, db.rels[a.Rel.index].n)
	}
	if db.plans == nil {
		db.plans = map[[2]int]*madePlan{}
	}
	db.plans[key] = m
	return m.p
}

// sizesWithin reports whether each positive atom of r's body but the
// delta atom has within a factor of planReuse of the tuples sizes gives
// for it.
func (db *Database) sizesWithin(r *Rule, delta int, sizes []int) bool {
	for i, a := range r.Body {
		if a.Negated || i == delta {
			continue
		}
		n := db.rels[a.Rel.index].n
		if n > planReuse*sizes[i] || planReuse*n < sizes[i] {
			return false
		}
	}
	return true
}

// addUse records that item id mentions variable name, once: items are
// added in increasing id order, so a repeat would be the last entry.
func addUse(uses map[string][]int, name string, id int) bool {
	u := uses[name]
	if len(u) > 0 && u[len(u)-1] == id {
		return false
	}
	uses[name] = append(u, id)
	return true
}

// comparisonType is the type of a comparison's variables (varTypes has
// those of the rule's body); for constants only, symbolType (the builtin
// symbol type) for strings and nil for numbers.
func comparisonType(c Comparison, varTypes map[string]*Type, symbolType *Type) *Type {
	for _, t := range []Term{c.Left, c.Right} {
		if t.Kind == VarTerm {
			return varTypes[t.Name]
		}
	}
	for _, t := range []Term{c.Left, c.Right} {
		if t.Kind == SymbolTerm {
			// Constants only: compare within the builtin symbol type, which
			// has a symbol table (a fresh Type would not).
			return symbolType
		}
	}
	return nil
}

// atomCost estimates how many tuples atom a yields for the variables bound
// so far, to join the cheapest atom next. An atom with no unbound variable
// is a test and yields at most one; otherwise the estimate is the tuples per
// key on the bound columns, or the whole relation when nothing is bound.
// The keys of one column are counted without an index (distinct); those
// of several, by the index on them (built here if
// it is new, as the plan will most likely use it). Plans are made again
// when the relations have grown past what they were made for (planFor), so
// the estimates follow the relations as they grow.
func (db *Database) atomCost(a Atom, bound func(Term) bool) float64 {
	rel := db.rels[a.Rel.index]
	var cols []int
	free := false
	for j, t := range a.Args {
		switch {
		case t.Kind == WildcardTerm:
		case bound(t):
			cols = append(cols, j)
		default:
			free = true
		}
	}
	switch {
	case !free:
		return 0
	case len(cols) == 0:
		return float64(rel.n)
	}
	keys, ok := 0, false
	if len(cols) == 1 {
		keys, ok = rel.distinct(cols[0])
	}
	if !ok {
		keys = rel.index(cols).used
	}
	return float64(rel.n) / float64(max(keys, 1))
}

// atomQueue holds the atoms a plan has still to join, cheapest first, ties
// in source order (container/heap over body indexes).
type atomQueue struct {
	atoms []int     // the heap
	cost  []float64 // by body index
	pos   []int     // by body index: position in atoms, or -1
}

func (q *atomQueue) Len() int { return len(q.atoms) }

func (q *atomQueue) Less(i, j int) bool {
	a, b := q.atoms[i], q.atoms[j]
	return q.cost[a] < q.cost[b] || q.cost[a] == q.cost[b] && a < b
}

func (q *atomQueue) Swap(i, j int) {
	q.atoms[i], q.atoms[j] = q.atoms[j], q.atoms[i]
	q.pos[q.atoms[i]], q.pos[q.atoms[j]] = i, j
}

func (q *atomQueue) Push(x any) {
	q.pos[x.(int)] = len(q.atoms)
	q.atoms = append(q.atoms, x.(int))
}

func (q *atomQueue) Pop() any {
	a := q.atoms[len(q.atoms)-1]
	q.atoms = q.atoms[:len(q.atoms)-1]
	q.pos[a] = -1
	return a
}

func (db *Database) atomStep(a Atom, delta bool, regs map[string]int, bound func(Term) bool, operandOf func(Term, *Type) operand) step {
	rel := db.rels[a.Rel.index]
	s := step{rel: rel, delta: delta}
	var keyCols []int
	allBound := true
	for i, t := range a.Args {
		if t.Kind == WildcardTerm {
			allBound = false
			continue
		}
		if bound(t) {
			keyCols = append(keyCols, i)
			s.key = append(s.key, operandOf(t, a.Rel.Attrs[i].Type))
		} else {
			allBound = false
		}
	}
	if allBound && !delta {
		s.kind = stepMember
		s.tuple = make([]uint32, rel.arity)
		return s
	}
	if len(keyCols) > 0 && !delta {
		s.kind = stepLookup
		s.ix = rel.index(keyCols)
		s.keyv = make([]uint32, len(keyCols))
	} else {
		s.kind = stepScan
		keyCols = nil
		s.key = nil
	}
	for i, t := range a.Args {
		switch {
		case t.Kind == WildcardTerm || slices.Contains(keyCols, i):
			// matched by the index, or nothing to match
		case t.Kind == VarTerm && !bound(t):
			regs[t.Name] = len(regs)
			s.args = append(s.args, argOp{kind: argBind, col: i, reg: regs[t.Name]})
		default: // a constant or bound variable checked while scanning
			o := operandOf(t, a.Rel.Attrs[i].Type)
			if o.reg < 0 {
				s.args = append(s.args, argOp{kind: argConst, col: i, val: o.val})
			} else {
				s.args = append(s.args, argOp{kind: argCheck, col: i, reg: o.reg})
			}
		}
	}
	s.exists = !slices.ContainsFunc(s.args, func(a argOp) bool { return a.kind == argBind })
	return s
}

func (db *Database) negationStep(a Atom, operandOf func(Term, *Type) operand) step {
	rel := db.rels[a.Rel.index]
	s := step{kind: stepNegated, rel: rel}
	var cols []int
	for i, t := range a.Args {
		if t.Kind != WildcardTerm {
			cols = append(cols, i)
			s.key = append(s.key, operandOf(t, a.Rel.Attrs[i].Type))
		}
	}
	if len(cols) < rel.arity {
		if len(cols) > 0 {
			s.ix = rel.index(cols)
		}
		s.keyv = make([]uint32, len(cols))
	} else {
		s.tuple = make([]uint32, rel.arity)
	}
	return s
}

// run executes the steps from i on, with the visible ranges rg.
func (p *plan) run(i int, rg *ranges) {
	if i == len(p.steps) {
		for k, o := range p.head {
			p.buf[k] = o.get(p.regs)
		}
		if p.deferred {
			if !p.out.contains(p.buf) {
				p.derived.insert(p.buf)
			}
			return
		}
		if p.out.insert(p.buf) {
			p.stats.Tuples++
		}
		return
	}
	s := &p.steps[i]
	regs := p.regs
	switch s.kind {
	case stepScan:
		lo, hi := s.scanRange(rg)
		p.scan(i, lo, hi, rg)
	case stepLookup:
		rel := s.rel
		for k, o := range s.key {
			s.keyv[k] = o.get(regs)
		}
		hi := rg.hi[rel.decl.index]
		for e := s.ix.lookup(rel, s.keyv); e != 0; e = s.ix.next[e-1] {
			id := e - 1
			if id >= hi {
				continue
			}
			if p.match(s, rel.tuple(id)) {
				p.run(i+1, rg)
				if s.exists {
					break
				}
			}
		}
	case stepMember:
		for k, o := range s.key {
			s.tuple[k] = o.get(regs)
		}
		if s.rel.contains(s.tuple) {
			p.run(i+1, rg)
		}
	case stepNegated:
		if s.tuple != nil {
			for k, o := range s.key {
				s.tuple[k] = o.get(regs)
			}
			if !s.rel.contains(s.tuple) {
				p.run(i+1, rg)
			}
			return
		}
		if s.ix == nil { // !r(_, ..., _)
			if s.rel.n == 0 {
				p.run(i+1, rg)
			}
			return
		}
		for k, o := range s.key {
			s.keyv[k] = o.get(regs)
		}
		if s.ix.lookup(s.rel, s.keyv) == 0 {
			p.run(i+1, rg)
		}
	case stepCompare:
		if compare(s.cmp, s.typ, s.l.get(regs), s.r.get(regs)) {
			p.run(i+1, rg)
		}
	}
}

// scanRange is the range of tuple ids a stepScan reads.
func (s *step) scanRange(rg *ranges) (lo, hi uint32) {
	x := s.rel.decl.index
	if s.delta {
		return rg.lo[x], rg.hi[x]
	}
	return 0, rg.hi[x]
}

// scan runs stepScan i over the tuple ids [lo, hi).
func (p *plan) scan(i int, lo, hi uint32, rg *ranges) {
	s := &p.steps[i]
	for id := lo; id < hi; id++ {
		if p.match(s, s.rel.tuple(id)) {
			p.run(i+1, rg)
			if s.exists {
				break
			}
		}
	}
}

// match checks a tuple against a step's repeated variables and constants,
// binding its new variables.
func (p *plan) match(s *step, t []uint32) bool {
	for _, a := range s.args {
		switch a.kind {
		case argBind:
			p.regs[a.reg] = t[a.col]
		case argCheck:
			if p.regs[a.reg] != t[a.col] {
				return false
			}
		case argConst:
			if a.val != t[a.col] {
				return false
			}
		}
	}
	return true
}

func compare(op CmpOp, kind BaseKind, a, b uint32) bool {
	switch op {
	case OpEq:
		return a == b
	case OpNe:
		return a != b
	}
	x, y := int32(a), int32(b)
	switch op {
	case OpLt:
		return x < y
	case OpLe:
		return x <= y
	case OpGt:
		return x > y
	}
	return x >= y
}

// Run evaluates the program, stratum by stratum, and returns statistics.
//
// A later Run, after facts were added to relations no rule derives,
// continues from the results so far (incremental evaluation): every rule
// runs as one variant per body atom whose relation grew since the last
// Run, that atom reading only the tuples added since then, and recursive
// strata then iterate as usual from the tuples new since the last Run.
// Complete because a derivation that is new uses at least one new tuple,
// and a variant joins it with everything else. Sound only while what a
// rule negates does not grow, since an earlier Run may have used its
// absence: Run returns an error naming the rule then. The statistics are
// those of all runs so far.
func (db *Database) Run() (*Stats, error) {
	start := time.Now()
	if db.ran {
		if err := db.prepareRerun(); err != nil {
			return nil, err
		}
	} else if err := db.prepareFirstRun(); err != nil {
		return nil, err
	}
	for i, s := range db.prog.Strata {
		db.runStratum(i, s, db.stats.Strata[i])
	}
	for i, r := range db.rels {
		db.mark[i] = uint32(r.n)
	}
	db.ran = true
	db.stats.Time += time.Since(start)
	return db.stats, nil
}

func (db *Database) prepareFirstRun() error {
	db.stats = &Stats{}
	for _, r := range db.prog.Rules {
		db.stats.Rules = append(db.stats.Rules, &RuleStats{Rule: r.String(), Pos: r.Pos})
	}
	for range db.prog.Strata {
		db.stats.Strata = append(db.stats.Strata, &StratumStats{})
	}
	// Intern constants before computing bounds: plans are compiled per stratum below.
	for _, r := range db.prog.Rules {
		for _, a := range append([]Atom{r.Head}, r.Body...) {
			for i, t := range a.Args {
				if t.Kind == SymbolTerm {
					db.Intern(a.Rel.Attrs[i].Type, t.Name)
				}
			}
		}
	}
	db.defined = make([]bool, len(db.rels))
	for _, r := range db.prog.Rules {
		db.defined[r.Head.Rel.index] = len(r.Body) > 0 || db.defined[r.Head.Rel.index]
	}
	// Only derived relations get bitsets (doc.go, Storage).
	bounds := db.columnBounds()
	for i, r := range db.rels {
		if db.defined[i] {
			r.makeDense(db.relationBounds(r, bounds))
		} else {
			r.freeze()
		}
	}
	db.mark = make([]uint32, len(db.rels))
	db.rg = &ranges{lo: make([]uint32, len(db.rels)), hi: make([]uint32, len(db.rels))}
	for i, r := range db.rels {
		db.rg.hi[i] = uint32(r.n)
	}
	return nil
}

// prepareRerun checks that no negated relation grew since the last Run,
// reshapes the dense relations whose domains grew, and makes the added
// facts visible, each input relation's delta being what was added.
func (db *Database) prepareRerun() error {
	for _, r := range db.prog.Rules {
		for _, a := range r.Body {
			if a.Negated && db.rels[a.Rel.index].n > int(db.mark[a.Rel.index]) {
				return fmt.Errorf("datalog: %s: %s grew since the last Run, and this rule negates it", r.Pos, a.Rel.Name)
			}
		}
	}
	db.seeSymbols()
	for _, r := range db.rels {
		if r.dense != nil {
			r.reshape(db.relationBounds(r, db.bounds))
		}
	}
	for i, r := range db.rels {
		db.rg.hi[i] = uint32(r.n)
	}
	return nil
}

func (db *Database) relationBounds(r *relation, bounds map[*Type]uint64) []uint64 {
	colBounds := make([]uint64, r.arity)
	for i, a := range r.decl.Attrs {
		colBounds[i] = bounds[a.Type]
	}
	return colBounds
}

// runStratum evaluates stratum number i. Only the stratum's relations grow
// meanwhile, so only their visible ranges move: the work is independent of
// the number of strata before and after it.
func (db *Database) runStratum(i int, s *Stratum, ss *StratumStats) {
	start := time.Now()
	rg, ruleStats := db.rg, db.stats.Rules
	if ss.Relations == nil {
		for _, r := range s.Relations {
			ss.Relations = append(ss.Relations, r.Name)
		}
	}
	inStratum := func(rel *Relation) bool { return rel.stratum == i }
	snapshot := func() {
		for _, r := range s.Relations {
			rg.hi[r.index] = uint32(db.rels[r.index].n)
		}
	}
	// Rules that read no relation of this stratum run once; the others run
	// as one variant per recursive atom, planned again each iteration
	// where the relations have grown past what their plan was made for
	// (planFor). On a
	// later Run, the first pass runs a variant per atom of an earlier
	// stratum that grew, reading what it gained.
	type variant struct {
		rule  *Rule
		delta int
	}
	var recursive []variant
	snapshot()
	for _, r := range s.Rules {
		isRec := false
		for i, a := range r.Body {
			if !a.Negated && inStratum(a.Rel) {
				isRec = true
				recursive = append(recursive, variant{r, i})
			}
		}
		if !db.ran {
			if !isRec {
				db.compile(r, -1, ruleStats[r.index]).exec(rg)
			}
			continue
		}
		for i, a := range r.Body {
			if a.Negated || inStratum(a.Rel) {
				continue
			}
			if x := a.Rel.index; db.mark[x] < rg.hi[x] {
				rg.lo[x] = db.mark[x]
				db.planFor(r, i, ruleStats[r.index]).exec(rg)
			}
		}
	}
	ss.Iterations++
	// Everything in the stratum's relations new in this Run is the first delta.
	for _, r := range s.Relations {
		rg.lo[r.index] = db.mark[r.index]
	}
	for len(recursive) > 0 {
		snapshot()
		changed := false
		for _, r := range s.Relations {
			if rg.lo[r.index] < rg.hi[r.index] {
				changed = true
			}
		}
		if !changed {
			break
		}
		for _, v := range recursive {
			if rg.lo[v.rule.Body[v.delta].Rel.index] < rg.hi[v.rule.Body[v.delta].Rel.index] {
				db.planFor(v.rule, v.delta, ruleStats[v.rule.index]).exec(rg)
			}
		}
		for _, r := range s.Relations {
			rg.lo[r.index] = rg.hi[r.index]
		}
		ss.Iterations++
	}
	snapshot() // for the strata that read this one
	ss.Tuples = 0
	for _, r := range s.Relations {
		ss.Tuples += db.rels[r.index].n
	}
	ss.Time += time.Since(start)
}

func (p *plan) exec(rg *ranges) {
	start := time.Now()
	before := p.stats.Tuples
	if lo, hi, ok := p.splittable(rg); ok {
		p.runSplit(lo, hi, rg)
	} else {
		p.run(0, rg)
	}
	d := time.Since(start)
	p.stats.Time += d
	p.stats.Evaluations++
	if p.db.Trace != nil {
		fmt.Fprintf(p.db.Trace, "%s: +%d tuples (%s now %d) in %s: %s\n", p.rule.Pos, p.stats.Tuples-before, p.out.decl.Name, p.out.n, roundDuration(d), p.rule)
	}
}

// splitMin is the number of tuples of a plan's first scan from which exec
// shares them out between cores: below it, the goroutines cost more than
// the joins they share (a variant of kobj.dl over 512 to 1,024 delta tuples
// takes about 0.2 ms on one core).
var splitMin uint32 = 1 << 9 // a variable so tests can split small inputs

// splitChunks is how many chunks of the first scan each worker takes, in
// all: several, so that a worker whose chunks derive little takes more.
// A scan of more than splitRound tuples is shared out in rounds, up to
// splitRounds, each inserting its tuples before the next starts: what
// waits to be inserted is then a part of what the evaluation derives,
// and later rounds do not keep what earlier ones inserted. A round holds
// its head tuples (each once per chunk) until it ends, so the first round
// takes one chunk per worker, and each later one as many chunks as the
// rounds before derived about splitBuffer words from: a join that derives
// millions of tuples per chunk (bbolt's tests, where the buffers held 4.4
// GB) runs in more rounds instead of holding them all.
const (
	splitChunks = 16
	splitRound  = 1 << 13
	splitRounds = 4
)

var splitBuffer = 1 << 23 // a variable so tests can take a chunk a round

// splittable reports whether exec may share out the first step's tuples
// [lo, hi) between cores, with the result of run(0, rg): the same tuples
// inserted in the same order (runSplit). Not when the plan tests its own
// head relation for whole tuples: run sees there the tuples it inserted
// itself, which the workers of a round would not.
func (p *plan) splittable(rg *ranges) (lo, hi uint32, ok bool) {
	if runtime.GOMAXPROCS(0) < 2 || len(p.steps) == 0 {
		return 0, 0, false
	}
	first := &p.steps[0]
	if first.kind != stepScan || first.exists {
		return 0, 0, false
	}
	for _, s := range p.steps {
		if s.rel == p.out && (s.kind == stepMember || s.kind == stepNegated) {
			return 0, 0, false
		}
	}
	lo, hi = first.scanRange(rg)
	return lo, hi, hi-lo >= splitMin
}

// runSplit evaluates the plan over the tuples [lo, hi) of its first scan
// on all cores, with the result of run(0, rg). The range is cut into
// chunks; in each round, workers (plans of their own: registers and
// scratch) take the next chunks and collect the head tuples that are not
// in the head relation yet, reading the relations only; then this
// goroutine inserts the chunks' tuples in the chunks' order. run would
// insert the same tuples in the same order: the steps after the first see
// only tuples that were there when the plan was made (ranges, indexes
// caught up at compile) or, in membership tests, relations other than the
// head (splittable), so a chunk derives what run derives from its tuples
// whenever it is evaluated; and a tuple the worker leaves out was in the
// head relation already, so run's insert would not have added it.
func (p *plan) runSplit(lo, hi uint32, rg *ranges) {
	workers := runtime.GOMAXPROCS(0)
	// The workers read the sets of the relations they test: build any
	// that is missing now, not in several goroutines at once.
	p.out.ensureSet()
	for _, s := range p.steps {
		if s.kind == stepMember || s.kind == stepNegated && s.tuple != nil {
			s.rel.ensureSet()
		}
	}
	parts := make([]*plan, workers)
	for w := range parts {
		parts[w] = p.worker()
	}
	chunk := max((hi-lo)/uint32(workers*splitChunks), 1)
	rounds := min(max((hi-lo)/splitRound, 1), splitRounds)
	perRound := workers * splitChunks / int(rounds)
	out := make([][]uint32, perRound)
	var chunks, words int // evaluated so far, and the head tuples' words they derived
	for lo < hi {
		want := workers
		if chunks > 0 {
			want = min(perRound, max(1, splitBuffer*chunks/max(words, 1)))
		}
		n := min(uint32(want), (hi-lo+chunk-1)/chunk)
		var next atomic.Uint32
		work := func(w *plan) {
			for c := next.Add(1) - 1; c < n; c = next.Add(1) - 1 {
				from := lo + c*chunk
				w.derived.clear(out[c])
				w.scan(0, from, min(from+chunk, hi), rg)
				out[c] = w.derived.rows
			}
		}
		// This goroutine is a worker too, instead of waiting for two: a
		// round starts one goroutine fewer, and its first chunk at once.
		// Most rounds are short (kobj.dl's split scans are mostly a few
		// hundred to a few thousand tuples, 0.25 ms a round), so a
		// goroutine's start is a share of them.
		var wg sync.WaitGroup
		for _, w := range parts[1:] {
			wg.Go(func() { work(w) })
		}
		work(parts[0])
		wg.Wait()
		a := p.out.arity
		for _, tuples := range out[:n] {
			words += len(tuples)
			for k := 0; k < len(tuples); k += a {
				if p.out.insert(tuples[k : k+a]) {
					p.stats.Tuples++
				}
			}
		}
		chunks += int(n)
		lo = min(lo+n*chunk, hi)
	}
}

// worker returns a copy of the plan for one goroutine of runSplit: its own
// registers and scratch, the same relations and indexes.
func (p *plan) worker() *plan {
	w := *p
	w.deferred = true
	w.derived = newRelation(p.out.decl)
	w.regs = make([]uint32, len(p.regs))
	w.buf = make([]uint32, len(p.buf))
	w.steps = slices.Clone(p.steps)
	for i := range w.steps {
		s := &w.steps[i]
		if s.tuple != nil {
			s.tuple = make([]uint32, len(s.tuple))
		}
		if s.keyv != nil {
			s.keyv = make([]uint32, len(s.keyv))
		}
	}
	return &w
}
