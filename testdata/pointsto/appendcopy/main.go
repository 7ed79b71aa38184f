// append, copy, string <-> []byte conversions.
package main

type P struct{ p *int }

func main() {
	var s []*int
	s = append(s, new(int)) // @append
	t := make([]*int, 2)    // @makeslice
	copy(t, s)              // @copy
	println(t[0])           // @index
	b := []byte("hello")    // @bytes
	println(string(b))      // @string

	// Elements that are structs: copy and append move the fields' contents.
	ps := []P{{p: new(int)}} // @structs
	qs := make([]P, 1)
	copy(qs, ps)
	rs := append([]P(nil), ps...)
	println(qs[0].p, rs[0].p) // @fields
}
