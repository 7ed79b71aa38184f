// The fixed twin of generic_closure_racy: the generic function waits for
// the goroutine its closure runs before its own write, so the join inside
// the instance fill[int] orders the two writes.
package main

import (
	"fmt"
	"sync"
)

func fill[T any](v T) T {
	var x T
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = v
	}()
	wg.Wait()
	x = v
	return x
}

func main() {
	fmt.Println(fill(1))
}
