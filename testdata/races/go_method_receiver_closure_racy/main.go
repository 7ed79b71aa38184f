// A go statement that calls a method gets the receiver's fields: the
// goroutine calls the closure the receiver holds, which main calls too.
package main

import "fmt"

type runner struct{ fn func() }

func (r *runner) run(done chan struct{}) {
	r.fn()
	close(done)
}

func main() {
	x := 0
	r := &runner{fn: func() { x++ }} // want "race"
	done := make(chan struct{})
	go r.run(done)
	r.fn()
	<-done
	fmt.Println(x)
}
