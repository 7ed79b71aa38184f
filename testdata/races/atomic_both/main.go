// sync/atomic on both sides: atomic operations on n never race with each other.
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
		atomic.AddInt64(&n, 1)
	}()
	atomic.AddInt64(&n, 1)
	fmt.Println(atomic.LoadInt64(&n) > 0)
	wg.Wait()
}
