// append to a slice with spare capacity writes into the shared backing array
// instead of copying: two goroutines extending one base slice both write
// base's array at index len(base).
package main

import (
	"fmt"
	"sync"
)

func main() {
	base := make([]int, 2, 8)
	var wg sync.WaitGroup
	out := make(chan []int, 2)
	for v := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- append(base, v) // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(<-out, <-out)
}
