// main locks mu twice; the goroutine writes x and then, instead of
// unlocking mu, overwrites it with a fresh Mutex, which lets main's second
// Lock return with no Unlock before it. The goroutine's later Unlock does
// not order its write before main's. The overwrite races with main's use
// of mu too.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var mu sync.Mutex
	done := make(chan bool)
	x := 0
	_ = x
	mu.Lock()
	go func() {
		x = 1             // want "race"
		mu = sync.Mutex{} // want "race"
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		mu.Unlock()
		done <- true
	}()
	time.Sleep(10 * time.Millisecond)
	mu.Lock()   // want "race"
	x = 2       // want "race"
	mu.Unlock() // want "race"
	<-done
	fmt.Println("done")
}
