// An errgroup-style Group: Go counts each function on the group's WaitGroup
// before starting it in a goroutine that calls Done when it returns, and Wait
// waits on that WaitGroup, so main reads each result after its goroutine
// wrote it. No race.
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
	var a, b int
	g.Go(func() { a = 1 })
	g.Go(func() { b = 2 })
	g.Wait()
	fmt.Println(a + b)
}
