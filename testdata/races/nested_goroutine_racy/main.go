// Nested goroutines: the outer goroutine starts an inner one and then reads x,
// which the inner goroutine writes; nothing orders the two.
package main

import (
	"fmt"
	"sync"
)

func main() {
	x := 0
	seen := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		go func() {
			defer wg.Done()
			x = 1 // want "race"
		}()
		seen <- x // want "race"
	}()
	wg.Wait()
	fmt.Println(<-seen, x)
}
