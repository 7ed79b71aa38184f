// A constructor called twice gives two objects, each used by one goroutine: the
// same allocation site in newCounter, different objects. No race.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func newCounter() *counter { return &counter{} }

func (c *counter) inc() { c.n++ }

func main() {
	a := newCounter()
	b := newCounter()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.inc()
	}()
	b.inc()
	wg.Wait()
	fmt.Println(a.n, b.n)
}
