// A map written after it was loaded: the load orders the writer after the
// map's publication, not with the other goroutine's read after its own load.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var clean atomic.Value
	clean.Store(map[int]int{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m := clean.Load().(map[int]int)
		m[1] = 1 // want "race"
	}()
	go func() {
		defer wg.Done()
		m := clean.Load().(map[int]int)
		fmt.Println(m[1]) // want "race"
	}()
	wg.Wait()
}
