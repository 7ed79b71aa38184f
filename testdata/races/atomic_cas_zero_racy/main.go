// A CompareAndSwap that succeeds from the initial value orders nothing: the worker
// is still parked on start, so main's CAS from 0 to 2 succeeds without reading any
// Store, and main's write of x races with the worker's.
package main

import (
	"fmt"
	"sync/atomic"
)

var x int

func main() {
	var s int32
	start := make(chan struct{})
	done := make(chan struct{})
	go func() {
		<-start
		x = 1 // want "race"
		atomic.StoreInt32(&s, 1)
		close(done)
	}()
	if atomic.CompareAndSwapInt32(&s, 0, 2) {
		close(start)
		x = 2 // want "race"
	}
	<-done
	fmt.Println(x)
}
