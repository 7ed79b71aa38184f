// sync.Cond: the producer sets ready and item under c.L and broadcasts; the
// consumer waits under c.L until ready. Every access holds the lock. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	c := sync.NewCond(&sync.Mutex{})
	ready, item := false, 0
	go func() {
		c.L.Lock()
		item, ready = 7, true
		c.L.Unlock()
		c.Broadcast()
	}()
	c.L.Lock()
	for !ready {
		c.Wait()
	}
	fmt.Println(item)
	c.L.Unlock()
}
