// Goroutines started by a range over a slice whose length is known only at
// run time each write the element at their own index i (a variable per
// iteration): i < len(out) with a step of 1 never wraps, so no two
// goroutines write the same element.
package main

import (
	"fmt"
	"os"
	"sync"
)

func main() {
	out := make([]int, len(os.Args)+3)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = 2 * i
		}()
	}
	wg.Wait()
	fmt.Println(out)
}
