// Struct values copied through memory, registers and interfaces: value trees
// keep the fields apart.
package main

type S struct{ a, b *int }

func (s S) A() *int { return s.a }

type Aer interface{ A() *int }

var sink *int

func main() {
	x := new(int) // @newx
	y := new(int) // @newy
	p := &S{a: x, b: y}
	q := &S{}
	*q = *p    // @copy
	v := *q    // @load
	sink = v.a // @field
	var i Aer = v
	sink = i.A()   // @invoke
	sink = i.(S).a // @assert
	println(sink, v.b)
}
