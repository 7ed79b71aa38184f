// With a bound of two the loop starts two goroutines that both update total.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	total := 0
	n := 2
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total += 10 // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(total)
}
