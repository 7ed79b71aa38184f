// As group_wait_limit, but main starts another goroutine after the Wait
// and before it changes the limit: that goroutine's done reads the limit
// while main writes it.
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
	if g.limit > 1 { // want "race"
		fmt.Println("limit")
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

func (g *Group) SetLimit(n int) { g.limit = n } // want "race"

func main() {
	g := new(Group)
	g.SetLimit(2)
	g.Go(func() {})
	g.Wait()
	g.Go(func() {})
	g.SetLimit(1)
	g.Wait()
}
