// An errgroup-style Group handed the same function twice: two goroutines run
// it, and its updates of count race.
package main

import (
	"fmt"
	"sync"
)

type group struct{ wg sync.WaitGroup }

func (g *group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func main() {
	var g group
	count := 0
	inc := func() { count++ } // want "race"
	g.Go(inc)
	g.Go(inc)
	g.wg.Wait()
	fmt.Println(count)
}
