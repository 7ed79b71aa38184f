// A counting loop whose bound is one: its go statement runs once, so the
// one goroutine it starts does not race with itself.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	total := 0
	n := 1
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total += 10
		}()
	}
	wg.Wait()
	fmt.Println(total)
}
