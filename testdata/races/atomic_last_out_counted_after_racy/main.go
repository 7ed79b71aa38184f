// The count comes after the goroutine's Add on the counter: the last
// goroutine out counts after it opened the door, while main reads.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	const n = 3
	waited := int32(n)
	count := int32(0)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if atomic.AddInt32(&waited, -1) == 0 {
				close(done)
			}
			atomic.AddInt32(&count, 1) // want "race"
		}()
	}
	<-done
	fmt.Println(count) // want "race"
	wg.Wait()
}
