// Slice header store: assigning buf writes its three words (pointer, len, cap)
// while main reads len(buf), unsynchronized.
package main

import (
	"fmt"
	"sync"
)

var buf []byte

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf = make([]byte, 8) // want "race"
	}()
	fmt.Println(len(buf)) // want "race"
	wg.Wait()
}
