// Goroutines append their results to one captured slice: append reads and
// writes the shared slice header and the backing array.
package main

import (
	"fmt"
	"strings"
	"sync"
)

func main() {
	names := []string{"ann", "bob", "cy"}
	var upper []string
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			upper = append(upper, strings.ToUpper(n)) // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(len(upper))
}
