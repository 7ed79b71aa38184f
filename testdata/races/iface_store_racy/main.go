// Interface value store: an interface is two words (type, data); the goroutine
// stores into last while main compares it, unsynchronized.
package main

import (
	"fmt"
	"sync"
)

var last any

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		last = 42 // want "race"
	}()
	fmt.Println(last == nil) // want "race"
	wg.Wait()
}
