// A constructor's object shared by main and a goroutine: both call inc on the same
// counter without a lock.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func newCounter() *counter { return &counter{} }

func (c *counter) inc() { c.n++ } // want "race"

func main() {
	a := newCounter()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.inc()
	}()
	a.inc()
	wg.Wait()
	fmt.Println(a.n)
}
