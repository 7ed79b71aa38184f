// Closures and function values passed around and stored in slices, maps,
// struct fields, channels, globals and through pointers; closures returned by
// functions, composed closures, a named func type, a func literal called in
// place.
package main

import "github.com/chordgo/chordgo/testdata/pointsto/soundness/edges"

type op func(int) int
type handler struct{ fn func(int) int }

var hook = double

func double(x int) int { trace(); return 2 * x }
func inc(x int) int    { trace(); return x + 1 }

func adder(n int) func(int) int {
	trace()
	return func(x int) int { trace(); return x + n }
}

func compose(f, g func(int) int) op {
	trace()
	return func(x int) int { trace(); return g(f(x)) }
}

func apply(fs []func(int) int, x int) int {
	trace()
	for _, f := range fs {
		x = f(x)
	}
	return x
}

func main() {
	trace()
	defer dump()
	x := apply([]func(int) int{double, adder(3)}, 1)
	m := map[string]func(int) int{
		"sq":  func(x int) int { trace(); return x * x },
		"neg": func(x int) int { trace(); return -x },
	}
	for _, k := range []string{"neg", "sq"} {
		x = m[k](x)
	}
	h := handler{fn: compose(inc, adder(2))}
	x = h.fn(x)
	ch := make(chan func(int) int, 2)
	ch <- func(x int) int { trace(); return x - 1 }
	ch <- adder(7)
	close(ch)
	for f := range ch {
		x = f(x)
	}
	fp := new(func(int) int)
	*fp = inc
	x = (*fp)(x)
	x = hook(x)
	x = func(y int) int { trace(); return y + x }(x)
	_ = x
	dump()
}

// The call-edge recorder is shared (package edges); trace and dump keep
// the names pointsto/soundness_test.go looks for.
var trace, dump = edges.Trace, edges.Dump
