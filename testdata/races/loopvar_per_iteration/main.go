// Per-iteration loop variables (Go 1.22+): each closure captures its own i, and the
// i++ of the next iteration writes a fresh copy, so no race. A static analysis that
// merges all copies of i into one allocation site may report a false alarm here.
package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make(chan int, 3)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- i * i
		}()
	}
	wg.Wait()
	fmt.Println(<-out + <-out + <-out)
}
