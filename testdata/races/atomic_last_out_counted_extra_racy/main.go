// One goroutine more than the counter counts: the door opens after the
// first two, and the third, which sleeps longest, counts after main read.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	waited := int32(2)
	count := int32(0)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 20 * time.Millisecond)
			atomic.AddInt32(&count, 1) // want "race"
			if atomic.AddInt32(&waited, -1) == 0 {
				close(done)
			}
		}()
	}
	<-done
	fmt.Println(count) // want "race"
	wg.Wait()
}
