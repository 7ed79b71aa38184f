// Command release races on x after a release: main writes x under mu,
// unlocks, and writes it again; the goroutine, which sleeps first, writes
// x under mu. Only main's second write races (the goroutine's Lock orders
// the first before it), so the Unlock between the two writes must keep
// the second one's check (racefree.TestSpanRaces).
package main

import (
	"fmt"
	"sync"
	"time"
)

var (
	mu sync.Mutex
	x  int
)

func main() {
	done := make(chan bool)
	go func() {
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		x = 1 // want "race"
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	x = 2
	mu.Unlock()
	x = 3 // want "race"
	<-done
	fmt.Println(x)
}
