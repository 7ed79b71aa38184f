package datalog

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The inputs have the shapes of ../shared/bench/datalog/gen.py, generated in
// Go so the benchmarks need no files: a sparse random digraph for transitive
// closure, and a synthetic program for field-sensitive Andersen points-to.

const tcProgram = `
.decl edge(x:number, y:number)
.input edge
.decl path(x:number, y:number)
.output path
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
`

const andersenProgram = `
.decl alloc(v:number, h:number)
.decl assign(to:number, from:number)
.decl load(to:number, base:number, f:number)
.decl store(base:number, f:number, from:number)
.input alloc
.input assign
.input load
.input store
.decl pt(v:number, h:number)
.decl hpt(h1:number, f:number, h2:number)
.output pt
.output hpt
pt(v, h) :- alloc(v, h).
pt(v, h) :- assign(v, w), pt(w, h).
hpt(h1, f, h2) :- store(v, f, w), pt(v, h1), pt(w, h2).
pt(v, h2) :- load(v, w, f), pt(w, h1), hpt(h1, f, h2).
`

type facts map[string][][]uint32

func tcFacts(nodes, edges int) facts {
	r := rand.New(rand.NewPCG(20261121, 1))
	var edge [][]uint32
	for range edges {
		edge = append(edge, []uint32{uint32(r.IntN(nodes)), uint32(r.IntN(nodes))})
	}
	return facts{"edge": edge}
}

func andersenFacts(vars, heap, fields int) facts {
	const perFunc = 16
	r := rand.New(rand.NewPCG(20261121, 2))
	local := func(v int) uint32 { return uint32(v/perFunc*perFunc + r.IntN(perFunc)) }
	callee := func() uint32 { return uint32(r.IntN(vars/perFunc)*perFunc + r.IntN(2)) }
	f := facts{}
	for _, v := range r.Perm(vars)[:heap] {
		f["alloc"] = append(f["alloc"], []uint32{uint32(v), uint32(r.IntN(heap))})
	}
	for range vars {
		v := r.IntN(vars)
		f["assign"] = append(f["assign"], []uint32{uint32(v), local(v)})
	}
	for range vars * 3 / 20 {
		f["assign"] = append(f["assign"], []uint32{callee(), uint32(r.IntN(vars))})
	}
	for range vars * 3 / 40 {
		v := r.IntN(vars)
		f["load"] = append(f["load"], []uint32{uint32(v), local(v), uint32(r.IntN(fields))})
		v = r.IntN(vars)
		f["store"] = append(f["store"], []uint32{local(v), uint32(r.IntN(fields)), uint32(v)})
	}
	return f
}

func runProgram(b *testing.B, src string, in facts) *Database {
	prog, err := Parse("bench.dl", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	db := NewDatabase(prog)
	for rel, tuples := range in {
		for _, t := range tuples {
			if err := db.Add(rel, t...); err != nil {
				b.Fatal(err)
			}
		}
	}
	if _, err := db.Run(); err != nil {
		b.Fatal(err)
	}
	return db
}

func benchmark(b *testing.B, src string, in facts, outputs ...string) {
	b.ReportAllocs()
	var db *Database
	for b.Loop() {
		db = runProgram(b, src, in)
	}
	n := 0
	for _, rel := range outputs {
		n += db.Len(rel)
	}
	b.ReportMetric(float64(n), "tuples")
}

// BenchmarkTransitiveClosure compares the bitset representation of binary
// relations with the hash set on the input where bitsets should pay most.
func BenchmarkTransitiveClosure(b *testing.B) {
	in := tcFacts(3000, 9000)
	for _, dense := range []bool{true, false} {
		b.Run(fmt.Sprintf("dense=%v", dense), func(b *testing.B) {
			defer func(old uint64) { denseBudget = old }(denseBudget)
			if !dense {
				denseBudget = 0
			}
			benchmark(b, tcProgram, in, "path")
		})
	}
}

func BenchmarkAndersen(b *testing.B) {
	benchmark(b, andersenProgram, andersenFacts(400000, 40000, 100), "pt", "hpt")
}

// chainProgram is n relations r0..r{n-1}, each defined from the one before
// (r1(x) :- r0(x). r2(x) :- r1(x). ...): n strata of one rule each. r0 holds
// the facts 0..facts-1, which every relation ends up holding.
func chainProgram(n, facts int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, ".decl r%d(x:number)\n", i)
	}
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "r%d(x) :- r%d(x).\n", i, i-1)
	}
	for v := range facts {
		fmt.Fprintf(&b, "r0(%d).\n", v)
	}
	return b.String()
}

// wideRuleProgram is one rule whose body is a path of n edge atoms,
// reach(x0, xn) :- edge(x0, x1), edge(x1, x2), ..., edge(xn-1, xn), over a
// two-node cycle: the join's plan is as long as the body.
func wideRuleProgram(n int) string {
	var b strings.Builder
	b.WriteString(".decl edge(x:number, y:number)\n.decl reach(x:number, y:number)\nedge(0, 1).\nedge(1, 0).\n")
	fmt.Fprintf(&b, "reach(x0, x%d) :- ", n)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "edge(x%d, x%d)", i, i+1)
	}
	b.WriteString(".\n")
	return b.String()
}

// parseAndRun measures what a user of `chordgo datalog` waits for on a
// program with no input files: parsing, checking, stratifying, evaluating.
func parseAndRun(b *testing.B, src string, output string) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		prog, err := Parse("bench.dl", []byte(src))
		if err != nil {
			b.Fatal(err)
		}
		db := NewDatabase(prog)
		if _, err := db.Run(); err != nil {
			b.Fatal(err)
		}
		n = db.Len(output)
	}
	b.ReportMetric(float64(n), "tuples")
}

// BenchmarkChainedStrata checks that the cost per stratum does not grow
// with the number of strata.
func BenchmarkChainedStrata(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		b.Run(fmt.Sprintf("relations=%d", n), func(b *testing.B) {
			parseAndRun(b, chainProgram(n, 10), fmt.Sprintf("r%d", n-1))
		})
	}
}

// BenchmarkWideRule checks that planning a join does not grow faster than
// its body.
func BenchmarkWideRule(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("atoms=%d", n), func(b *testing.B) {
			parseAndRun(b, wideRuleProgram(n), "reach")
		})
	}
}
