// A Group's goroutines read its limit in done, which calls the WaitGroup's
// Done last; main changes the limit only after Wait has waited for every
// goroutine started so far, and before it starts the next. No race.
package main

import (
	"fmt"
	"sync"
)

type Group struct {
	wg    sync.WaitGroup
	limit int
}

func (g *Group) done() {
	if g.limit > 1 {
		fmt.Println("limit", g.limit)
	}
	g.wg.Done()
}

func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.done()
		f()
	}()
}

func (g *Group) Wait() { g.wg.Wait() }

func (g *Group) SetLimit(n int) { g.limit = n }

func main() {
	g := new(Group)
	g.SetLimit(2)
	g.Go(func() {})
	g.Go(func() {})
	g.Wait()
	g.SetLimit(1)
	g.Go(func() {})
	g.Wait()
}
