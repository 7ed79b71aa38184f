// The reader waits until the pointer is nil, the value the location starts
// with: its loop ends at once, before the writer (parked on start until
// then) stores anything, so its atomic Load orders nothing.
package main

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

type config struct{ port int }

func main() {
	var published unsafe.Pointer
	var cfg config
	start := make(chan struct{})
	go func() {
		<-start
		cfg.port = 8080 // want "race"
		atomic.StorePointer(&published, unsafe.Pointer(&cfg))
	}()
	for atomic.LoadPointer(&published) != nil {
		runtime.Gosched()
	}
	close(start)
	time.Sleep(10 * time.Millisecond) // let the writer run: no happens-before
	fmt.Println(cfg.port)             // want "race"
}
