// As demand_captured_callback, but main's runner is given a callback that
// writes x too: splitting the runners leaves the true race.
package main

import "fmt"

var x int

type runner struct{ name string }

func (r *runner) run(fn func()) {
	func() {
		fn()
	}()
}

func main() {
	a, b := &runner{}, &runner{}
	done := make(chan bool)
	go func() {
		a.run(func() { x = 1 }) // want "race"
		done <- true
	}()
	b.run(func() { x = 2 }) // want "race"
	<-done
	fmt.Println(x)
}
