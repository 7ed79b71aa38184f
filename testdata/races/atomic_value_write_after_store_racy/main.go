// The writer publishes its map and then writes it again: the second write
// is not before the store, and a reader that loaded the map races with it.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var clean atomic.Value
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		dirty := make(map[int]int)
		dirty[1] = 1
		clean.Store(dirty)
		dirty[2] = 2 // want "race"
	}()
	go func() {
		defer wg.Done()
		for {
			if m, ok := clean.Load().(map[int]int); ok {
				fmt.Println(m[2]) // want "race"
				return
			}
		}
	}()
	wg.Wait()
}
