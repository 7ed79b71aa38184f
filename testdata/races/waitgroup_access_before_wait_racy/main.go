// sync.WaitGroup misuse: main reads r.sum before calling Wait, so the worker's
// writes are not yet ordered before the read.
package main

import (
	"fmt"
	"sync"
)

type result struct{ sum int }

func main() {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.sum = 45 // want "race"
	}()
	fmt.Println(r.sum) // want "race"
	wg.Wait()
}
