// Type assertions and type switches to concrete and interface types, the
// results of calls with several results, value receivers of named slice,
// map and func types called through interfaces, and a pointer converted to
// another named type before it goes into an interface: the analysis filters
// assertions and receivers by dynamic type, and these calls must survive.
package main

import (
	"sort"

	"github.com/chordgo/chordgo/testdata/pointsto/soundness/edges"
)

type Op interface{ Do() int }
type Namer interface{ Name() string }

type Add struct{ n int }
type Mul struct{ n int }
type Ops []Op
type Table map[string]Op
type Thunk func() int
type Alias Add
type byN []*Add

func (a *Add) Do() int           { trace(); return a.n + 1 }
func (a *Add) Name() string      { trace(); return "add" }
func (m Mul) Do() int            { trace(); return m.n * 2 }
func (o Ops) Do() int            { trace(); return len(o) }
func (t Table) Do() int          { trace(); return len(t) }
func (f Thunk) Do() int          { trace(); return f() }
func (a *Alias) Do() int         { trace(); return a.n - 1 }
func (b byN) Len() int           { trace(); return len(b) }
func (b byN) Less(i, j int) bool { trace(); return b[i].n < b[j].n }
func (b byN) Swap(i, j int)      { trace(); b[i], b[j] = b[j], b[i] }

func pick(k int) (Op, func() int) {
	trace()
	if k == 0 {
		return &Add{1}, func() int { trace(); return 1 }
	}
	return Mul{2}, func() int { trace(); return 2 }
}

func run(x any) int {
	trace()
	n := 0
	switch v := x.(type) {
	case *Add:
		n += v.Do()
	case Mul:
		n += v.Do()
	case Namer:
		n += len(v.Name())
	case Op:
		n += v.Do()
	}
	if op, ok := x.(Op); ok {
		n += op.Do()
	}
	if nm, ok := x.(Namer); ok {
		n += len(nm.Name())
	}
	return n
}

func main() {
	trace()
	defer dump()
	n := 0
	for k := range 2 {
		op, f := pick(k)
		n += op.Do() + f()
	}
	xs := []any{&Add{1}, Mul{2}, Ops{Mul{3}}, Table{"a": &Add{4}}, Thunk(func() int { trace(); return 5 })}
	for _, x := range xs {
		n += run(x)
	}
	var op Op = (*Alias)(&Add{6})
	n += op.Do()
	n += run(op)
	s := byN{{3}, {1}, {2}}
	sort.Sort(s)
	_ = n
	dump()
}

// The call-edge recorder is shared (package edges); trace and dump keep
// the names pointsto/soundness_test.go looks for.
var trace, dump = edges.Trace, edges.Dump
