// A helper method starts each function it is given in a goroutine of its
// own; main calls it twice on one pool and waits after each call, so each
// goroutine's write comes before what main does after that Wait. The
// helper's go statement is one for both calls; each call starts its own
// goroutine running its own function. No race.
package main

import (
	"fmt"
	"sync"
)

type pool struct{ wg sync.WaitGroup }

func (p *pool) run(f func()) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		f()
	}()
}

var x, y int

func main() {
	p := &pool{}
	p.run(func() { x = 1 })
	p.wg.Wait()
	x = 2
	p.run(func() { y = x })
	p.wg.Wait()
	fmt.Println(x, y)
}
