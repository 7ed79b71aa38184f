// The writer fills the config, then publishes a pointer that is never nil
// with an atomic store; the reader spins until it loads that pointer, so
// the store is synchronized before its read of the config.
package main

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"
)

type config struct{ port int }

func main() {
	var published unsafe.Pointer
	var cfg config
	ready := unsafe.Pointer(&cfg)
	go func() {
		cfg.port = 8080
		atomic.StorePointer(&published, ready)
	}()
	for atomic.LoadPointer(&published) != ready {
		runtime.Gosched()
	}
	fmt.Println(cfg.port)
}
