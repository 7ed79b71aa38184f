// An atomic Load that reads the initial value orders nothing: the worker is still
// parked on start, so main's Load sees 0, and main's write of x in that branch
// races with the worker's.
package main

import (
	"fmt"
	"sync/atomic"
)

var x int

func main() {
	var s int64
	start := make(chan struct{})
	done := make(chan struct{})
	go func() {
		<-start
		x = 1 // want "race"
		atomic.StoreInt64(&s, 1)
		close(done)
	}()
	if atomic.LoadInt64(&s) == 0 {
		close(start)
		x = 2 // want "race"
	}
	<-done
	fmt.Println(x)
}
