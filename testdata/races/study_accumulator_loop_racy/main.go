// Goroutines started in a loop add into one accumulator that they all reach
// through a pointer: the read-modify-writes race with each other.
package main

import (
	"fmt"
	"sync"
)

type totals struct {
	bytes int
}

func main() {
	files := []int{120, 45, 300}
	t := &totals{}
	var wg sync.WaitGroup
	for _, size := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.bytes += size // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(t.bytes)
}
