// The counter restarts in every round of the outer loop, so goroutines of
// two rounds write the same element.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var last [2]int
	var wg sync.WaitGroup
	for round := 0; round < 2; round++ {
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				last[i] = round // want "race"
			}(i)
		}
	}
	wg.Wait()
	fmt.Println(last)
}
