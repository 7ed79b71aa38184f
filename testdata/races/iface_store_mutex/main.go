// Interface value store and load, both under the same mutex. No race.
package main

import (
	"fmt"
	"sync"
)

var (
	mu   sync.Mutex
	last any
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		last = 42
		mu.Unlock()
	}()
	mu.Lock()
	isNil := last == nil
	mu.Unlock()
	wg.Wait()
	fmt.Println(isNil)
}
