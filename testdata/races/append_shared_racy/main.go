// append to a shared slice: both goroutines read and write the slice header in
// items (and its backing array) with no lock.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var items []int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		items = append(items, 1) // want "race"
	}()
	items = append(items, 2) // want "race"
	wg.Wait()
	fmt.Println(len(items))
}
