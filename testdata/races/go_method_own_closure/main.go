// A method called directly and started by a go statement on one receiver
// (singleflight's Do and DoChan around doCall): the goroutine calls only
// the function value its own go statement hands it, so main's closure runs
// in main alone.
package main

import "fmt"

type runner struct{ calls int }

func (r *runner) run(fn func()) {
	fn()
}

func main() {
	r := &runner{}
	x := 0
	done := make(chan struct{})
	go r.run(func() { close(done) })
	r.run(func() { x++ })
	<-done
	fmt.Println(x)
}
