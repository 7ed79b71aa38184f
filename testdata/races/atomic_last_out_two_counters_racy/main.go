// Each call of start makes its own counter, so each call's goroutine is the
// last one out of its counter: both write total.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

var total int

func start(wg *sync.WaitGroup) {
	left := int32(1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if atomic.AddInt32(&left, -1) == 0 {
			total++ // want "race"
		}
	}()
}

func main() {
	var wg sync.WaitGroup
	start(&wg)
	start(&wg)
	wg.Wait()
	fmt.Println(total)
}
