// The second worker starts after the reader: its Add may come when the
// first worker is done and the reader already reading, so the reader's
// read of slot 1 is not ordered with the write. Slot 0's writer started
// before the reader and is waited for.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var slots [2]int
	var workers sync.WaitGroup
	done := make(chan bool, 3)
	workers.Add(1)
	go func() {
		slots[0] = 1
		workers.Done()
		done <- true
	}()
	go func() {
		workers.Wait()
		fmt.Println(slots[0], slots[1]) // want "race"
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // let the reader pass its Wait: no happens-before
	workers.Add(1)
	go func() {
		slots[1] = 2 // want "race"
		workers.Done()
		done <- true
	}()
	<-done
	<-done
	<-done
}
