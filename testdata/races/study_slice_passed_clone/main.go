// The fixed twin of study_slice_passed_racy: each goroutine gets its own
// backing array (slices.Clone), so the caller's next write touches none of it.
package main

import (
	"fmt"
	"slices"
	"sync"
)

func report(buf []int, wg *sync.WaitGroup) {
	defer wg.Done()
	fmt.Println(buf[0])
}

func main() {
	var wg sync.WaitGroup
	samples := make([]int, 4)
	for round := range 3 {
		samples[0] = round
		wg.Add(1)
		go report(slices.Clone(samples), &wg)
	}
	wg.Wait()
}
