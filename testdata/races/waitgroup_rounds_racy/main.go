// Main reads the slots before it waits for the round's workers, which may
// still be writing them.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var slots [3]int
	var wg sync.WaitGroup
	for round := 0; round < 4; round++ {
		wg.Add(len(slots))
		for i := 0; i < len(slots); i++ {
			go func(i int) {
				slots[i] += round // want "race"
				wg.Done()
			}(i)
		}
		for i := 0; i < len(slots); i++ {
			fmt.Println(slots[i]) // want "race"
		}
		wg.Wait()
	}
}
