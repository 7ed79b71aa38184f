// Each round ranges over the indexes of last again, so the goroutines of
// two rounds write the same element: i differs only within a round.
package main

import (
	"fmt"
	"sync"
)

func main() {
	last := make([]int, 2)
	var wg sync.WaitGroup
	for round := range 2 {
		for i := range last {
			wg.Add(1)
			go func() {
				defer wg.Done()
				last[i] = round // want "race"
			}()
		}
	}
	wg.Wait()
	fmt.Println(last)
}
