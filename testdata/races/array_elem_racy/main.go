// Array element: the goroutine and main both write slots[1] of a global array
// without synchronization.
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
		slots[1] = 1 // want "race"
	}()
	slots[1] = 2 // want "race"
	wg.Wait()
	fmt.Println(slots)
}
