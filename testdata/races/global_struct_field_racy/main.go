// Field of a global struct: the goroutine stores config.limit while main loads it,
// with no synchronization between them.
package main

import (
	"fmt"
	"sync"
)

var config struct {
	name  string
	limit int
}

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		config.limit = 10 // want "race"
	}()
	fmt.Println(config.limit) // want "race"
	wg.Wait()
}
