// Each call is counted on its own WaitGroup and handed to a helper that
// computes its value in a function literal and calls Done in a deferred one:
// main waits on the call it handed to a goroutine before reading its value,
// and reads the value of the call it handed to an inline helper after the
// helper returned. No race.
package main

import (
	"fmt"
	"sync"
)

type call struct {
	wg  sync.WaitGroup
	val int
	ok  bool
}

func compute(c *call, v int) {
	defer func() {
		c.ok = true
		c.wg.Done()
	}()
	func() {
		c.val = v
	}()
}

func main() {
	c := new(call)
	c.wg.Add(1)
	go compute(c, 1)
	d := new(call)
	d.wg.Add(1)
	compute(d, 2)
	c.wg.Wait()
	fmt.Println(c.val, c.ok, d.val, d.ok)
}
