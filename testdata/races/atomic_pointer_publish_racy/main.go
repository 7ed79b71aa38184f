// The reader waits for a pointer that may be nil (it is, unless the
// program gets more than four arguments), the value the location starts
// with: its loop may end before the writer stores anything.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

type config struct{ port int }

func main() {
	var published unsafe.Pointer
	var cfg config
	var ready unsafe.Pointer
	if len(os.Args) > 5 {
		ready = unsafe.Pointer(&cfg)
	}
	go func() {
		cfg.port = 8080 // want "race"
		atomic.StorePointer(&published, unsafe.Pointer(&cfg))
	}()
	for atomic.LoadPointer(&published) != ready {
		runtime.Gosched()
	}
	time.Sleep(10 * time.Millisecond) // let the writer run: no happens-before
	fmt.Println(cfg.port)             // want "race"
}
