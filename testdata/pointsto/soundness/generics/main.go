// Generic functions and methods instantiated with several types: a method
// called through a type parameter's constraint, a func parameter, a generic
// type's methods called directly and through a generic interface, an
// instantiated generic function used as a value, generic calling generic.
package main

import (
	"strconv"
	"strings"

	"github.com/chordgo/chordgo/testdata/pointsto/soundness/edges"
)

type Number interface{ ~int | ~float64 }
type Stringer interface{ String() string }
type Container[T any] interface{ Push(T) }

type ID int
type Name string
type Stack[T any] struct{ items []T }

func (i ID) String() string    { trace(); return "#" + strconv.Itoa(int(i)) }
func (n *Name) String() string { trace(); return string(*n) }

func (s *Stack[T]) Push(x T) { trace(); s.items = append(s.items, x) }

func (s *Stack[T]) Each(f func(T)) {
	trace()
	for _, x := range s.items {
		f(x)
	}
}

func Sum[T Number](xs []T) (s T) {
	trace()
	for _, x := range xs {
		s += x
	}
	return s
}

func Map[T, U any](xs []T, f func(T) U) (out []U) {
	trace()
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Join[S Stringer](xs []S) string {
	trace()
	return strings.Join(Map(xs, func(x S) string { trace(); return x.String() }), ",")
}

func Fill[T any](c Container[T], xs ...T) {
	trace()
	for _, x := range xs {
		c.Push(x)
	}
}

func main() {
	trace()
	defer dump()
	a, b := Name("a"), Name("b")
	s := Join([]ID{1, 2}) + Join([]*Name{&a, &b})
	n := Sum([]int{1, 2}) + int(Sum([]float64{1.5}))
	lens := Map([]string{"x", "yy"}, func(s string) int { trace(); return len(s) })
	ints, strs := &Stack[int]{}, &Stack[string]{}
	Fill[int](ints, lens...)
	Fill(Container[string](strs), "p", "q")
	ints.Each(func(i int) { trace(); n += i })
	strs.Each(func(x string) { trace(); s += x })
	sumF := Sum[ID]
	_, _, _ = n, s, sumF([]ID{3, 4})
	dump()
}

// The call-edge recorder is shared (package edges); trace and dump keep
// the names pointsto/soundness_test.go looks for.
var trace, dump = edges.Trace, edges.Dump
