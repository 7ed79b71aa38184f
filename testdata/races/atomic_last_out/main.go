// The last goroutine out closes the door: every goroutine decrements the
// counter atomically and only the one whose Add returns 0 writes total and
// closes done. The Adds on one counter return distinct values, so the write
// and the close run once, in one goroutine.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

var total int

func main() {
	const n = 4
	left := int32(n)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if atomic.AddInt32(&left, -1) == 0 {
				total++
				close(done)
			}
		}()
	}
	<-done
	wg.Wait()
	fmt.Println(total)
}
