// Two distinct sync.Once values guarding the same initialization: each runs load
// once, so load runs twice, concurrently, and its writes race.
package main

import (
	"fmt"
	"sync"
)

var (
	onceA, onceB sync.Once
	limit        int
)

func load() { limit = 100 } // want "race"

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		onceA.Do(load)
	}()
	go func() {
		defer wg.Done()
		onceB.Do(load)
	}()
	wg.Wait()
	fmt.Println(limit)
}
