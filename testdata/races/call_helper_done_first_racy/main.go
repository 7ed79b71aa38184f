// A call handed to a helper goroutine that calls Done before the function
// literal that writes the value: main's Wait may return before the write.
package main

import (
	"fmt"
	"sync"
)

type call struct {
	wg  sync.WaitGroup
	val int
}

func compute(c *call, v int) {
	c.wg.Done()
	func() {
		c.val = v // want "race"
	}()
}

func main() {
	c := new(call)
	c.wg.Add(1)
	go compute(c, 1)
	c.wg.Wait()
	fmt.Println(c.val) // want "race"
}
