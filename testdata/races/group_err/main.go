// An errgroup-style Group made anew in a loop and waited on in rounds: Go
// counts each function on the group's WaitGroup right before the go
// statement, the goroutine defers a helper that calls Done, and the first
// error is stored under the group's own sync.Once. Wait returns the error
// after waiting, so every read of it follows the writes of the goroutines
// counted before, and the goroutines of a later round start after it. No
// race.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type group struct {
	wg      sync.WaitGroup
	sem     chan struct{}
	errOnce sync.Once
	err     error
}

func (g *group) done() {
	if g.sem != nil {
		<-g.sem
	}
	g.wg.Done()
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.done()
		if err := f(); err != nil {
			g.errOnce.Do(func() {
				g.err = err
			})
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	return g.err
}

func main() {
	for i := range 2 {
		g := new(group)
		for j := range 3 {
			g.Go(func() error {
				if j == i {
					return fmt.Errorf("task %d", j)
				}
				return nil
			})
		}
		fmt.Println(g.Wait())
		g.Go(func() error { return errors.New("again") })
		fmt.Println(g.Wait())
	}
}
