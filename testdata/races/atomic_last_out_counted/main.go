// Each of n goroutines counts its panic atomically, then lowers a counter
// that starts at n; the one that brings it to zero closes done. Every
// goroutine's Add comes before the last one, so main's plain read after
// <-done follows every count.
package main

import (
	"fmt"
	"sync/atomic"
)

func main() {
	const n = 5
	waited := int32(n)
	panics := int32(0)
	done := make(chan struct{})
	for i := 0; i < n; i++ {
		go func() {
			defer func() {
				if recover() != nil {
					atomic.AddInt32(&panics, 1)
				}
				if atomic.AddInt32(&waited, -1) == 0 {
					close(done)
				}
			}()
			panic("boom")
		}()
	}
	<-done
	if panics != n {
		fmt.Println("lost a panic")
	}
}
