// An errgroup-style Group whose goroutines write one shared total: Wait orders
// them with main's read, not with each other.
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

func (g *group) Wait() { g.wg.Wait() }

func main() {
	var g group
	total := 0
	g.Go(func() { total += 1 }) // want "race"
	g.Go(func() { total += 2 }) // want "race"
	g.Wait()
	fmt.Println(total)
}
