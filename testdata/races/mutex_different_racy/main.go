// Two different mutexes: each side holds a lock, but not the same one, so the
// increments of total are unordered.
package main

import (
	"fmt"
	"sync"
)

var (
	muA, muB sync.Mutex
	total    int
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		muA.Lock()
		total++ // want "race"
		muA.Unlock()
	}()
	muB.Lock()
	total++ // want "race"
	muB.Unlock()
	wg.Wait()
	fmt.Println(total)
}
