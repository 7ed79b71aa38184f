// Field stores and loads through a pointer; an unaddressed field gets no sub-site.
package main

type T struct {
	a    *int
	b    int
	next *T // never addressed
}

func main() {
	x := new(int) // @newx
	t := &T{}     // @newT
	t.a = x       // @storeA
	y := t.a      // @loadA
	t.b = 2       // @storeB
	println(*y, t.b)
}
