// An atomic access and a plain access to the same variable race: the goroutine
// uses atomic.AddInt64, main reads n directly.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var n int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.AddInt64(&n, 1) // want "race"
	}()
	fmt.Println(n) // want "race"
	wg.Wait()
}
