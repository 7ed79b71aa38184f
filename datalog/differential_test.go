package datalog

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The differential test generates random layered (so stratifiable) programs
// and fact sets, evaluates them with the engine and with the naive evaluator
// below, and compares every relation.

// Value domains: small values make the engine use bitsets, large ones force
// its hash sets, negative ones make the column bounds unknown.
type domainMode int

const (
	smallDomain domainMode = iota
	largeDomain
	negativeDomain
	mixedDomain // one small and one large type
)

func (m domainMode) String() string {
	return [...]string{"small", "large", "negative", "mixed"}[m]
}

var symbolValues = []string{"a", "b", "c", `d\\x`, "e f"} // as written in a program: `\\` is an escape

type gType struct {
	name   string // as declared; "number" and "symbol" are the builtins
	decl   string // the .type line, or ""
	symbol bool
	values []int32 // the domain: numbers, or indexes into symbolValues
	vars   []string
}

type gTermKind int

const (
	gVar gTermKind = iota
	gWild
	gConst
)

type gTerm struct {
	kind gTermKind
	name string // variable
	val  int32  // constant: number, or index into symbolValues
}

type gAtom struct {
	rel  int
	args []gTerm
	neg  bool
}

type gCmp struct {
	op   CmpOp
	l, r gTerm
	typ  int
}

type gRule struct {
	head gAtom
	body []gAtom
	cmps []gCmp
}

type gRel struct {
	name  string
	types []int
	layer int
	input bool // .input: facts come from ReadFacts
}

type gFact struct {
	rel   int
	tuple []int32
	how   int // 0: in the program text, 1: db.Add, 2: ReadFacts (input relations)
}

type gProg struct {
	mode  domainMode
	types []*gType
	rels  []*gRel
	rules []*gRule
	facts []gFact
}

func genProgram(rng *rand.Rand, mode domainMode) *gProg {
	g := &gProg{mode: mode}
	ntypes := 1 + rng.IntN(2)
	for i := range ntypes {
		t := &gType{}
		switch rng.IntN(3) {
		case 0:
			t.name = "number"
		case 1:
			t.name = fmt.Sprintf("T%d", i)
			t.decl = fmt.Sprintf(".type %s <: number", t.name)
		default:
			t.name = fmt.Sprintf("T%d", i)
			t.decl = fmt.Sprintf(".type %s = number", t.name)
		}
		if i > 0 && t.name == "number" && g.types[0].name == "number" {
			t.name = fmt.Sprintf("T%d", i)
			t.decl = fmt.Sprintf(".type %s <: number", t.name)
		}
		small := make([]int32, 4+rng.IntN(5))
		for k := range small {
			small[k] = int32(k)
		}
		large := []int32{0, 7, 63, 64, 1000, 1 << 16, 1<<20 - 1, 1 << 20}
		switch {
		case mode == smallDomain || mode == mixedDomain && i == 0:
			t.values = small
		case mode == largeDomain || mode == mixedDomain:
			t.values = large[:4+rng.IntN(5)]
		default:
			t.values = []int32{-1 << 20, -3, -2, -1, 0, 1, 2, 1 << 20}[:4+rng.IntN(5)]
		}
		for k := range 4 {
			t.vars = append(t.vars, fmt.Sprintf("%c%d", 'x'+i, k))
		}
		g.types = append(g.types, t)
	}
	// Sometimes a symbol type too.
	if rng.IntN(4) == 0 {
		t := &gType{symbol: true, values: []int32{0, 1, 2, 3, 4}[:2+rng.IntN(4)], vars: []string{"s0", "s1", "s2"}}
		if rng.IntN(2) == 0 {
			t.name = "symbol"
		} else {
			t.name = "S"
			t.decl = ".type S <: symbol"
		}
		g.types = append(g.types, t)
	}

	nrels := 2 + rng.IntN(5)
	maxLayer := rng.IntN(4)
	for i := range nrels {
		r := &gRel{name: fmt.Sprintf("r%d", i), layer: rng.IntN(maxLayer + 1)}
		if i == 0 {
			r.layer = 0
		}
		for range 1 + rng.IntN(3) {
			r.types = append(r.types, rng.IntN(len(g.types)))
		}
		r.input = rng.IntN(3) == 0
		g.rels = append(g.rels, r)
	}
	// Facts: every layer-0 relation gets some, others sometimes.
	for i, r := range g.rels {
		if r.layer > 0 && rng.IntN(3) != 0 {
			continue
		}
		n := rng.IntN(9)
		if rng.IntN(10) == 0 {
			n = 0 // an empty input
		}
		for range n {
			f := gFact{rel: i, how: rng.IntN(2)}
			if r.input {
				f.how = 2
			}
			for _, ti := range r.types {
				f.tuple = append(f.tuple, g.types[ti].pick(rng))
			}
			g.facts = append(g.facts, f)
		}
	}
	nrules := 1 + rng.IntN(8)
	for range nrules {
		if r := g.genRule(rng); r != nil {
			g.rules = append(g.rules, r)
		}
	}
	return g
}

func (t *gType) pick(rng *rand.Rand) int32 { return t.values[rng.IntN(len(t.values))] }

func (g *gProg) genRule(rng *rand.Rand) *gRule {
	hi := rng.IntN(len(g.rels))
	head := g.rels[hi]
	var lower, same []int
	for i, r := range g.rels {
		switch {
		case r.layer < head.layer:
			lower = append(lower, i)
		case r.layer == head.layer:
			same = append(same, i)
		}
	}
	rule := &gRule{}
	bound := map[string]int{} // variable -> type
	npos := 1 + rng.IntN(3)
	if rng.IntN(15) == 0 {
		npos = 0 // a rule with no positive atom: constants only
	}
	for range npos {
		ri := lower
		if len(lower) == 0 || rng.IntN(2) == 0 {
			ri = same
		}
		rel := ri[rng.IntN(len(ri))]
		a := gAtom{rel: rel}
		for _, ti := range g.rels[rel].types {
			t := g.types[ti]
			switch p := rng.IntN(10); {
			case p == 0:
				a.args = append(a.args, gTerm{kind: gWild})
			case p == 1:
				a.args = append(a.args, gTerm{kind: gConst, val: t.pick(rng)})
			default:
				v := t.vars[rng.IntN(len(t.vars))]
				bound[v] = ti
				a.args = append(a.args, gTerm{kind: gVar, name: v})
			}
		}
		rule.body = append(rule.body, a)
	}
	varsOf := func(ti int) []string {
		var vs []string
		for _, v := range g.types[ti].vars {
			if _, ok := bound[v]; ok {
				vs = append(vs, v)
			}
		}
		return vs
	}
	// A term for a column of type ti in a head, negation or comparison.
	boundTerm := func(ti int, wild bool) gTerm {
		vs := varsOf(ti)
		p := rng.IntN(10)
		switch {
		case wild && p < 2:
			return gTerm{kind: gWild}
		case len(vs) > 0 && p < 8:
			return gTerm{kind: gVar, name: vs[rng.IntN(len(vs))]}
		}
		return gTerm{kind: gConst, val: g.types[ti].pick(rng)}
	}
	if len(lower) > 0 {
		for range rng.IntN(3) {
			rel := lower[rng.IntN(len(lower))]
			a := gAtom{rel: rel, neg: true}
			full := rng.IntN(6) == 0 // !r(_, ..., _)
			for _, ti := range g.rels[rel].types {
				if full {
					a.args = append(a.args, gTerm{kind: gWild})
				} else {
					a.args = append(a.args, boundTerm(ti, true))
				}
			}
			// Negated atoms may come anywhere in the body.
			at := rng.IntN(len(rule.body) + 1)
			rule.body = slices.Insert(rule.body, at, a)
		}
	}
	for range rng.IntN(3) {
		ti := rng.IntN(len(g.types))
		t := g.types[ti]
		c := gCmp{op: CmpOp(rng.IntN(6)), typ: ti}
		if t.symbol {
			c.op = CmpOp(rng.IntN(2))
		}
		c.l, c.r = boundTerm(ti, false), boundTerm(ti, false)
		if rng.IntN(2) == 0 {
			c.l, c.r = c.r, c.l
		}
		rule.cmps = append(rule.cmps, c)
	}
	rule.head = gAtom{rel: hi}
	for _, ti := range head.types {
		rule.head.args = append(rule.head.args, boundTerm(ti, false))
	}
	return rule
}

func (g *gProg) constText(ti int, v int32) string {
	if g.types[ti].symbol {
		return `"` + symbolValues[v] + `"`
	}
	return fmt.Sprint(v)
}

// symbolText is the symbol a symbolValues entry denotes (escapes resolved).
func symbolText(v int32) string { return strings.ReplaceAll(symbolValues[v], `\\`, `\`) }

func (g *gProg) termText(t gTerm, ti int) string {
	switch t.kind {
	case gVar:
		return t.name
	case gWild:
		return "_"
	}
	return g.constText(ti, t.val)
}

func (g *gProg) atomText(a gAtom) string {
	var b strings.Builder
	if a.neg {
		b.WriteString("!")
	}
	b.WriteString(g.rels[a.rel].name + "(")
	for i, t := range a.args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(g.termText(t, g.rels[a.rel].types[i]))
	}
	return b.String() + ")"
}

func (g *gProg) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "// domain: %v\n", g.mode)
	for _, t := range g.types {
		if t.decl != "" {
			b.WriteString(t.decl + "\n")
		}
	}
	for _, r := range g.rels {
		fmt.Fprintf(&b, ".decl %s(", r.name)
		for i, ti := range r.types {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "c%d:%s", i, g.types[ti].name)
		}
		fmt.Fprintf(&b, ") // layer %d\n", r.layer)
		if r.input {
			fmt.Fprintf(&b, ".input %s\n", r.name)
		}
	}
	for _, f := range g.facts {
		if f.how == 0 {
			b.WriteString(g.atomText(g.factAtom(f)) + ".\n")
		}
	}
	for _, r := range g.rules {
		b.WriteString(g.atomText(r.head))
		for i, a := range r.body {
			if i == 0 {
				b.WriteString(" :- ")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(g.atomText(a))
		}
		for i, c := range r.cmps {
			if i == 0 && len(r.body) == 0 {
				b.WriteString(" :- ")
			} else {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s %s", g.termText(c.l, c.typ), c.op, g.termText(c.r, c.typ))
		}
		b.WriteString(".\n")
	}
	return b.String()
}

func (g *gProg) factAtom(f gFact) gAtom {
	a := gAtom{rel: f.rel}
	for _, v := range f.tuple {
		a.args = append(a.args, gTerm{kind: gConst, val: v})
	}
	return a
}

func (g *gProg) factsText() string {
	var b strings.Builder
	for _, f := range g.facts {
		how := [...]string{"text", "Add", "ReadFacts"}[f.how]
		fmt.Fprintf(&b, "%s %s\n", how, g.tupleText(f.rel, f.tuple))
	}
	return b.String()
}

// tupleText renders a tuple as WriteRelation does: tab-separated.
func (g *gProg) tupleText(rel int, t []int32) string {
	var parts []string
	for i, v := range t {
		if g.types[g.rels[rel].types[i]].symbol {
			parts = append(parts, symbolText(v))
		} else {
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, "\t")
}

// deferable reports, by relation, whether no rule derives or negates it: its
// facts may be added after a Run.
func (g *gProg) deferable() []bool {
	ok := make([]bool, len(g.rels))
	for i := range ok {
		ok[i] = true
	}
	for _, r := range g.rules {
		ok[r.head.rel] = false
		for _, a := range r.body {
			if a.neg {
				ok[a.rel] = false
			}
		}
	}
	return ok
}

// naiveEval evaluates g by iterating every rule over every tuple to a
// fixpoint, layer by layer. The result maps each relation to its tuples.
func naiveEval(g *gProg) []map[string][]int32 {
	rels := make([]map[string][]int32, len(g.rels))
	for i := range rels {
		rels[i] = map[string][]int32{}
	}
	key := func(t []int32) string { return fmt.Sprint(t) }
	for _, f := range g.facts {
		rels[f.rel][key(f.tuple)] = f.tuple
	}
	maxLayer := 0
	for _, r := range g.rels {
		maxLayer = max(maxLayer, r.layer)
	}
	for layer := 0; layer <= maxLayer; layer++ {
		for changed := true; changed; {
			changed = false
			for _, rule := range g.rules {
				if g.rels[rule.head.rel].layer != layer {
					continue
				}
				var derived [][]int32
				naiveMatch(rels, rule, 0, map[string]int32{}, func(env map[string]int32) {
					var t []int32
					for _, a := range rule.head.args {
						if a.kind == gVar {
							t = append(t, env[a.name])
						} else {
							t = append(t, a.val)
						}
					}
					derived = append(derived, t)
				})
				for _, t := range derived {
					if _, ok := rels[rule.head.rel][key(t)]; !ok {
						rels[rule.head.rel][key(t)] = t
						changed = true
					}
				}
			}
		}
	}
	return rels
}

// naiveMatch enumerates the bindings of the positive atoms of rule from
// body index i on, then checks negations and comparisons.
func naiveMatch(rels []map[string][]int32, rule *gRule, i int, env map[string]int32, emit func(map[string]int32)) {
	if i == len(rule.body) {
		for _, a := range rule.body {
			if !a.neg {
				continue
			}
			for _, t := range rels[a.rel] {
				if unify(a.args, t, env, false) {
					return
				}
			}
		}
		for _, c := range rule.cmps {
			val := func(t gTerm) int32 {
				if t.kind == gVar {
					return env[t.name]
				}
				return t.val
			}
			l, r := val(c.l), val(c.r)
			ok := [...]bool{OpEq: l == r, OpNe: l != r, OpLt: l < r, OpLe: l <= r, OpGt: l > r, OpGe: l >= r}[c.op]
			if !ok {
				return
			}
		}
		emit(env)
		return
	}
	a := rule.body[i]
	if a.neg {
		naiveMatch(rels, rule, i+1, env, emit)
		return
	}
	for _, t := range rels[a.rel] {
		e := maps.Clone(env)
		if unify(a.args, t, e, true) {
			naiveMatch(rels, rule, i+1, e, emit)
		}
	}
}

// unify matches args against tuple t; with bind, unbound variables are bound
// in env, otherwise every variable must already be bound.
func unify(args []gTerm, t []int32, env map[string]int32, bind bool) bool {
	for i, a := range args {
		switch a.kind {
		case gConst:
			if a.val != t[i] {
				return false
			}
		case gVar:
			v, ok := env[a.name]
			if !ok {
				if !bind {
					panic("unbound variable " + a.name)
				}
				env[a.name] = t[i]
			} else if v != t[i] {
				return false
			}
		}
	}
	return true
}

// engineValue encodes a generated value for the engine.
func (g *gProg) engineValue(db *Database, prog *Program, ti int, v int32) uint32 {
	t := g.types[ti]
	if t.symbol {
		return db.Intern(prog.Type(t.name), symbolText(v))
	}
	return Number(v)
}

// database returns a database for prog (g's program) holding all of g's
// facts, added with Database.Add.
func (g *gProg) database(t *testing.T, prog *Program) *Database {
	t.Helper()
	db := NewDatabase(prog)
	for _, f := range g.facts {
		vals := make([]uint32, len(f.tuple))
		for i, v := range f.tuple {
			vals[i] = g.engineValue(db, prog, g.rels[f.rel].types[i], v)
		}
		if err := db.Add(g.rels[f.rel].name, vals...); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// runDifferential evaluates g with the engine and compares every relation
// with naiveEval. With incremental, the db.Add facts of relations that no
// rule derives or negates are split: the first half is added before a
// first Run, the rest after it, and a second Run must give what one Run
// over all facts gives.
func runDifferential(t *testing.T, g *gProg, incremental bool) {
	t.Helper()
	src := g.text()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\nprogram:\n%s\nfacts:\n%s", fmt.Sprintf(format, args...), src, g.factsText())
	}
	defer func() {
		if r := recover(); r != nil {
			fail("panic: %v", r)
		}
	}()
	prog, err := Parse("random.dl", []byte(src))
	if err != nil {
		fail("Parse: %v", err)
	}
	db := NewDatabase(prog)
	files := map[int]*strings.Builder{}
	var later []gFact
	deferable := g.deferable()
	for k, f := range g.facts {
		switch f.how {
		case 1:
			if incremental && deferable[f.rel] && k%2 == 1 {
				later = append(later, f)
				continue
			}
			var vals []uint32
			for i, v := range f.tuple {
				vals = append(vals, g.engineValue(db, prog, g.rels[f.rel].types[i], v))
			}
			if err := db.Add(g.rels[f.rel].name, vals...); err != nil {
				fail("Add: %v", err)
			}
		case 2:
			if files[f.rel] == nil {
				files[f.rel] = &strings.Builder{}
			}
			files[f.rel].WriteString(g.tupleText(f.rel, f.tuple) + "\n")
		}
	}
	for rel, b := range files {
		name := g.rels[rel].name
		if err := db.ReadFacts(name+".facts", []byte(b.String()), name); err != nil {
			fail("ReadFacts: %v", err)
		}
	}
	if _, err := db.Run(); err != nil {
		fail("Run: %v", err)
	}
	if incremental {
		for _, f := range later {
			var vals []uint32
			for i, v := range f.tuple {
				vals = append(vals, g.engineValue(db, prog, g.rels[f.rel].types[i], v))
			}
			if err := db.Add(g.rels[f.rel].name, vals...); err != nil {
				fail("Add after Run: %v", err)
			}
		}
		if _, err := db.Run(); err != nil {
			fail("second Run: %v", err)
		}
	}
	want := naiveEval(g)
	for i, r := range g.rels {
		var got, exp []string
		for tup := range db.Tuples(r.name) {
			var parts []string
			for k, v := range tup {
				parts = append(parts, db.Text(prog.Relation(r.name).Attrs[k].Type, v))
			}
			got = append(got, strings.Join(parts, "\t"))
		}
		for _, tup := range want[i] {
			exp = append(exp, g.tupleText(i, tup))
			vals := make([]uint32, len(tup))
			for k, v := range tup {
				vals[k] = g.engineValue(db, prog, r.types[k], v)
			}
			if !db.Contains(r.name, vals...) {
				fail("%s: Contains(%v) = false", r.name, tup)
			}
		}
		slices.Sort(got)
		slices.Sort(exp)
		if !slices.Equal(got, exp) {
			fail("%s:\n got %q\nwant %q", r.name, got, exp)
		}
		if db.Len(r.name) != len(exp) {
			fail("%s: Len = %d, want %d", r.name, db.Len(r.name), len(exp))
		}
	}
}

func TestDifferential(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	for _, mode := range []domainMode{smallDomain, largeDomain, negativeDomain, mixedDomain} {
		t.Run(mode.String(), func(t *testing.T) {
			for seed := range uint64(n) {
				rng := rand.New(rand.NewPCG(seed, uint64(mode)))
				g := genProgram(rng, mode)
				t.Run(fmt.Sprint(seed), func(t *testing.T) { runDifferential(t, g, false) })
				t.Run(fmt.Sprint(seed, "/incremental"), func(t *testing.T) { runDifferential(t, g, true) })
			}
		})
	}
}

// TestDifferentialRepresentation checks that the small-domain cases really exercise
// the bitset representation and the large ones the hash sets.
func TestDifferentialRepresentation(t *testing.T) {
	counts := map[domainMode][2]int{} // dense, hash binary relations after Run
	for _, mode := range []domainMode{smallDomain, largeDomain} {
		for seed := range uint64(50) {
			g := genProgram(rand.New(rand.NewPCG(seed, uint64(mode))), mode)
			prog, err := Parse("random.dl", []byte(g.text()))
			if err != nil {
				t.Fatal(err)
			}
			db := g.database(t, prog)
			if _, err := db.Run(); err != nil {
				t.Fatal(err)
			}
			c := counts[mode]
			for _, r := range db.rels {
				if r.arity == 2 {
					if r.dense != nil {
						c[0]++
					} else {
						c[1]++
					}
				}
			}
			counts[mode] = c
		}
	}
	if counts[smallDomain][0] == 0 {
		t.Errorf("small domains: no binary relation uses bitsets (%v)", counts)
	}
	if counts[largeDomain][1] == 0 {
		t.Errorf("large domains: no binary relation uses hash sets (%v)", counts)
	}
	t.Logf("binary relations [dense hash]: %v", counts)
}
