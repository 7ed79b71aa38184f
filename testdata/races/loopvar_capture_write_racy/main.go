// A local declared before the loop is one variable for all iterations: the
// goroutines started in the loop capture the same n and race on it with each other.
package main

import (
	"fmt"
	"sync"
)

func main() {
	n := 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n++ // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(n)
}
