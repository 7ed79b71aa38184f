// Global variable: main and a goroutine both increment hits without a lock.
package main

import (
	"fmt"
	"sync"
)

var hits int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		hits++ // want "race"
	}()
	hits++ // want "race"
	wg.Wait()
	fmt.Println(hits)
}
