// A counter that goes up as well as down can return 0 to several Adds: each
// goroutine raises it before lowering it, and when they run one after the
// other each sees 0 and writes total.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

var total int

func main() {
	var busy int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt32(&busy, 1)
			if atomic.AddInt32(&busy, -1) == 0 {
				total++ // want "race"
			}
		}()
	}
	wg.Wait()
	fmt.Println(total)
}
