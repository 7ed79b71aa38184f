// Global variable: main touches hits only after wg.Wait, which the goroutine's
// Done happens before, so the two increments are ordered.
package main

import (
	"fmt"
	"sync"
)

var hits int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		hits++
	}()
	wg.Wait()
	hits++
	fmt.Println(hits)
}
