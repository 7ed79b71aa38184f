// The helper takes the lock only when asked to: main's write is not under mu
// on every path, and here it is not.
package main

import (
	"fmt"
	"os"
	"sync"
)

var (
	mu sync.Mutex
	n  int
)

func maybeLock(really bool) int {
	if really {
		mu.Lock()
	}
	return 1
}

func main() {
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++ // want "race"
		mu.Unlock()
		done <- true
	}()
	really := len(os.Args) > 5
	n = maybeLock(really) // want "race"
	if really {
		mu.Unlock()
	}
	<-done
	fmt.Println(n)
}
