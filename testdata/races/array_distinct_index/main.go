// Array elements at different constant indexes: slots[0] and slots[1] are distinct
// locations, so there is no race. A static analysis with one pseudo-field [*] per
// array cannot tell them apart and may report a false alarm here.
package main

import (
	"fmt"
	"sync"
)

var slots [4]int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		slots[0] = 1
	}()
	slots[1] = 2
	wg.Wait()
	fmt.Println(slots)
}
