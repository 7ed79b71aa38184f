// clear(m) writes the whole map while main looks up a key, with no synchronization.
// The sleep only avoids a runtime fatal error from overlapping map operations.
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
		clear(m) // want "race"
	}()
	time.Sleep(10 * time.Millisecond)
	_, ok := m["a"] // want "race"
	wg.Wait()
	fmt.Println(ok)
}
