// sync.Cond: the producer writes item after unlocking and broadcasting, so the
// consumer's read after Wait is not ordered with it (ready itself is locked).
package main

import (
	"fmt"
	"sync"
)

func main() {
	c := sync.NewCond(&sync.Mutex{})
	ready, item := false, 0
	done := make(chan bool)
	go func() {
		c.L.Lock()
		ready = true
		c.L.Unlock()
		c.Broadcast()
		item = 7 // want "race"
		done <- true
	}()
	c.L.Lock()
	for !ready {
		c.Wait()
	}
	c.L.Unlock()
	fmt.Println(item) // want "race"
	<-done
}
