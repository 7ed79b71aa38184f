// A helper method starts each function it is given in a goroutine of its
// own. main gives it two: the first writes x while main writes x too, with
// nothing between them; the second writes y, which main reads only after
// waiting. The helper's go statement is one for both calls, but each call
// starts its own goroutine running its own function.
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
	p.run(func() {
		x = 1 // want "race" (not with itself)
	})
	x = 2 // want "race"
	p.run(func() {
		y = 1
	})
	p.wg.Wait()
	fmt.Println(y)
}
