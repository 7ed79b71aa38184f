// Publication through an atomic flag: the writer fills data, then stores ready; the
// reader reads data only after a Load that saw the Store (synchronized). No race, but
// the edge holds only once the loop has exited: a static analysis may false-alarm.
package main

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

type payload struct{ v int }

func main() {
	data := &payload{}
	var ready atomic.Bool
	go func() {
		data.v = 42
		ready.Store(true)
	}()
	for !ready.Load() {
		runtime.Gosched()
	}
	fmt.Println(data.v)
}
