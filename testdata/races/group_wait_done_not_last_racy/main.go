// A Group whose done counts the finished goroutines after the WaitGroup's
// Done: Wait may return before the count, so main's read races with it.
package main

import (
	"fmt"
	"sync"
)

type Group struct {
	wg       sync.WaitGroup
	finished int
}

func (g *Group) done() {
	g.wg.Done()
	g.finished++ // want "race"
}

func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.done()
		f()
	}()
}

func (g *Group) Wait() { g.wg.Wait() }

func main() {
	g := new(Group)
	g.Go(func() {})
	g.Wait()
	fmt.Println(g.finished) // want "race"
}
