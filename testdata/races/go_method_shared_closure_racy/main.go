// One closure handed to a method called directly and to the same method
// started by a go statement: both goroutines run it.
package main

import "fmt"

type runner struct{ calls int }

func (r *runner) run(fn func(), done chan struct{}) {
	fn()
	if done != nil {
		close(done)
	}
}

func main() {
	r := &runner{}
	x := 0
	done := make(chan struct{})
	inc := func() { x++ } // want "race"
	go r.run(inc, done)
	r.run(inc, nil)
	<-done
	fmt.Println(x)
}
