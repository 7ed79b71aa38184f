// copy into a shared slice: copy writes the elements of dst while main reads
// dst[0]; nothing orders them.
package main

import (
	"fmt"
	"sync"
)

func main() {
	src := []int{1, 2, 3}
	dst := make([]int, 3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		copy(dst, src) // want "race"
	}()
	fmt.Println(dst[0]) // want "race"
	wg.Wait()
}
