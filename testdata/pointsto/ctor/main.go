// A constructor called from two sites.
package main

type T struct{ p *int }

func newT() *T {
	return &T{} // @alloc
}

func main() {
	a := newT() // @call1
	b := newT() // @call2
	a.p = new(int)
	println(b.p)
}
