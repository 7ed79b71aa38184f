// The fixed twin of study_slice_append_spare_cap_racy: the base slice is
// clipped to its length (a full slice expression), so each append copies into
// a new array.
package main

import (
	"fmt"
	"sync"
)

func main() {
	base := make([]int, 2, 8)
	base = base[:len(base):len(base)]
	var wg sync.WaitGroup
	out := make(chan []int, 2)
	for v := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- append(base, v)
		}()
	}
	wg.Wait()
	fmt.Println(<-out, <-out)
}
