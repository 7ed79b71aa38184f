// sync.Once orders only what its f does: here every caller of get also writes
// calls after Do returns, outside f, so the two goroutines' updates race, while
// ready, written inside f, is read safely after Do.
package main

import (
	"fmt"
	"sync"
)

var (
	once  sync.Once
	ready bool
	calls int
)

func load() { ready = true }

func get() bool {
	once.Do(load)
	calls++ // want "race"
	return ready
}

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = get()
	}()
	fmt.Println(get())
	wg.Wait()
}
