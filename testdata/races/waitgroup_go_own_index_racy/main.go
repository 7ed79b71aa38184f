// sync.WaitGroup.Go in a range loop, but each value of the function
// literal is handed to Go twice: two goroutines run it with the same i
// and both increment the same element.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	hits := make([]int, 3)
	for i := range hits {
		inc := func() {
			hits[i]++ // want "race"
		}
		wg.Go(inc)
		wg.Go(inc)
	}
	wg.Wait()
	fmt.Println(hits)
}
