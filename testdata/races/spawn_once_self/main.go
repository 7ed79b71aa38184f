// A goroutine started once: its go statement runs a single time, so its repeated
// writes to counter are ordered by program order; main reads after Wait. No race.
package main

import (
	"fmt"
	"sync"
)

var counter int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			counter++
		}
	}()
	wg.Wait()
	fmt.Println(counter)
}
