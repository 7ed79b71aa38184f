// Each runner calls the callback it is given through a closure that
// captures it. The goroutine's callback writes x; main's runner is given
// one that does not. At k = 1 one abstract closure and one captured
// variable stand for both runners' calls, so main seems to call the
// goroutine's callback; the demand loop must split them by receiver. No
// race.
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
		a.run(func() { x = 1 })
		done <- true
	}()
	b.run(func() { fmt.Println("b") })
	<-done
	fmt.Println(x)
}
