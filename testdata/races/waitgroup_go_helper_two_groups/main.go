// Two helpers, each with a WaitGroup of its own given a function by Go and
// waited for before the helper returns. The go statement inside
// WaitGroup.Go is one for both helpers; each helper's goroutine ends before
// that helper returns. No race.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

func compute(s *stats) {
	var wg sync.WaitGroup
	wg.Go(func() { s.n++ })
	wg.Wait()
}

func notify(done chan bool) {
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { done <- true })
}

func main() {
	s := &stats{}
	compute(s)
	fmt.Println(s.n)
	done := make(chan bool, 1)
	notify(done)
	<-done
}
