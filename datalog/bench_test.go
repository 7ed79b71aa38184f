package datalog

import (
	"fmt"
	"math/rand/v2"
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
