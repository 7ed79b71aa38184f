// Two constructors: one called from one site, one from two. Raising k of
// the first's allocation lengthens its one object's context; raising k of
// the second's splits its object in two.
package main

type T struct{ p *int }

func newOnce() *T {
	return &T{} // @once
}

func newTwice() *T {
	return &T{} // @twice
}

func main() {
	a := newOnce()
	b := newTwice()
	c := newTwice()
	a.p = new(int) // @int
	println(b.p, c.p)
}
