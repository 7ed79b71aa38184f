// A spawn in a loop: one go statement starts three goroutines, which race with
// each other on counter (no other access is involved).
package main

import (
	"fmt"
	"sync"
)

var counter int

func main() {
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counter++ // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(counter)
}
