// A slice passed by value is a copy of the header only: the goroutine's buf
// and the caller's samples share one backing array, so the caller's reuse of
// the buffer races with the goroutine's read.
package main

import (
	"fmt"
	"sync"
)

func report(buf []int, wg *sync.WaitGroup) {
	defer wg.Done()
	fmt.Println(buf[0]) // want "race"
}

func main() {
	var wg sync.WaitGroup
	samples := make([]int, 4)
	for round := range 3 {
		samples[0] = round // want "race"
		wg.Add(1)
		go report(samples, &wg)
	}
	wg.Wait()
}
