// String variable store: a string header is two words (pointer, length); the
// goroutine stores status while main reads its length, unsynchronized.
package main

import (
	"fmt"
	"sync"
)

var status string

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		status = "done" // want "race"
	}()
	fmt.Println(len(status)) // want "race"
	wg.Wait()
}
