// A pointer variable declared in the loop body and captured by the goroutine:
// main fills each iteration's object before the go statement, the goroutine
// of that iteration updates it, and earlier goroutines hold earlier
// iterations' variables, each with its own object. go/ssa keeps p in a cell
// the closure captures; the cell is stored once, so handing it to the closure
// is handing the object over. No race.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func main() {
	var wg sync.WaitGroup
	counters := make(chan *counter, 3)
	for i := range 3 {
		p := &counter{}
		p.n = i
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.n++
			counters <- p
		}()
	}
	wg.Wait()
	close(counters)
	for c := range counters {
		fmt.Println(c.n)
	}
}
