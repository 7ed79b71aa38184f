// Interface method calls with several implementations: pointer and value
// receivers, methods promoted from an embedded pointer and an embedded value
// (wrappers in SSA), an interface embedding another, a named func type with a
// method, an interface in a struct field, and a type switch.
package main

import (
	"maps"
	"slices"

	"github.com/chordgo/chordgo/testdata/pointsto/soundness/edges"
)

type Shape interface{ Area() int }
type Named interface {
	Shape
	Name() string
}

type Sq struct{ s int }
type Circle struct{ r int }
type Fn func() int
type Labeled struct{ *Sq } // promotes (*Sq).Area and (*Sq).Name
type Ring struct{ Circle } // promotes Circle.Area, overrides Name
type Holder struct{ s Shape }

func (q *Sq) Area() int       { trace(); return q.s * q.s }
func (q *Sq) Name() string    { trace(); return "sq" }
func (c Circle) Area() int    { trace(); return 3 * c.r * c.r }
func (c Circle) Name() string { trace(); return "circle" }
func (f Fn) Area() int        { trace(); return f() }
func (r *Ring) Name() string  { trace(); return "ring/" + r.Circle.Name() }

func total(shapes []Shape) (n int) {
	trace()
	for _, s := range shapes {
		n += s.Area()
	}
	return n
}

func classify(s Shape) string {
	trace()
	switch v := s.(type) {
	case *Sq:
		return v.Name()
	case Named:
		return v.Name()
	}
	return "?"
}

func main() {
	trace()
	defer dump()
	shapes := []Shape{&Sq{2}, Circle{1}, Fn(func() int { trace(); return 7 }), Labeled{&Sq{3}}, Ring{Circle{2}}, &Ring{Circle{3}}}
	n, s := total(shapes), ""
	named := map[string]Named{"a": &Sq{1}, "b": Circle{1}, "c": &Ring{Circle{1}}, "d": Labeled{&Sq{1}}}
	for _, k := range slices.Sorted(maps.Keys(named)) {
		s += named[k].Name()
	}
	for _, sh := range shapes {
		s += classify(sh)
	}
	h := &Holder{s: Ring{Circle{4}}}
	n += h.s.Area()
	_, _ = n, s
	dump()
}

// The call-edge recorder is shared (package edges); trace and dump keep
// the names pointsto/soundness_test.go looks for.
var trace, dump = edges.Trace, edges.Dump
