// sync.WaitGroup.Go: two goroutines started with wg.Go both write total; Wait
// orders them only with main's later read, not with each other.
package main

import (
	"fmt"
	"sync"
)

func main() {
	total := 0
	var wg sync.WaitGroup
	wg.Go(func() {
		total += 1 // want "race"
	})
	wg.Go(func() {
		total += 2 // want "race"
	})
	wg.Wait()
	fmt.Println(total)
}
