// Method values (bound methods) and method expressions (thunks).
package main

type C struct{ n int }

func (c *C) Inc() {
	c.n++ // @inc
}

var hook func(*C)

func main() {
	c := &C{}       // @newC
	f := c.Inc      // @bound
	f()             // @callf
	hook = (*C).Inc // @thunk
	hook(c)         // @callg
	println(c.n)
}
