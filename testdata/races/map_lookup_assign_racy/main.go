// Map lookup vs assignment: the goroutine assigns m["a"] while main looks it up.
// The sleep only keeps the two map operations from overlapping in time (which the
// runtime would turn into a fatal error); it creates no happens-before edge.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	m := map[string]int{"a": 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		m["a"] = 2 // want "race"
	}()
	time.Sleep(10 * time.Millisecond)
	fmt.Println(m["a"]) // want "race"
	wg.Wait()
}
