// One call counted twice and handed to two goroutines of the same helper:
// the call is the helper's parameter in two activations, and the two write
// its value at once.
package main

import (
	"fmt"
	"sync"
)

type call struct {
	wg  sync.WaitGroup
	val int
}

func fill(c *call, v int) {
	defer c.wg.Done()
	c.val = v // want "race"
}

func main() {
	c := new(call)
	c.wg.Add(2)
	go fill(c, 1)
	go fill(c, 2)
	c.wg.Wait()
	fmt.Println(c.val)
}
