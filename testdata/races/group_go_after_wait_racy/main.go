// An errgroup-style Group whose waiter starts another function between its
// Wait and its read of the error: the new goroutine's write is not waited
// for.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() {
				g.err = err // want "race"
			})
		}
	}()
}

func (g *group) waitThenGo(f func() error) error {
	g.wg.Wait()
	g.Go(f)
	return g.err // want "race"
}

func main() {
	g := new(group)
	g.Go(func() error { return nil })
	fmt.Println(g.waitThenGo(func() error { return errors.New("late") }))
	g.wg.Wait()
}
