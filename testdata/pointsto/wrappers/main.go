// Command wrappers takes one method value and one method expression twice:
// go/ssa makes a wrapper function for each use, equal in name and position.
package main

type T int

func (T) M() {}

func main() {
	var t T
	f, g := t.M, t.M
	h, k := T.M, T.M
	f()
	g()
	h(t)
	k(t)
}
