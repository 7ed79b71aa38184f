// A closure inside a generic function: the goroutine it starts and the
// generic function itself write the same variable, unordered.
package main

import (
	"fmt"
	"sync"
)

func fill[T any](v T) T {
	var x T
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = v // want "race"
	}()
	x = v // want "race"
	wg.Wait()
	return x
}

func main() {
	fmt.Println(fill(1))
}
