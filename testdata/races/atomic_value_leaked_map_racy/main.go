// A fresh map is published with an atomic store, but also kept in a plain
// variable that the reader uses without any load: the write before the
// store is not ordered with that read.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

var shared map[int]int

func main() {
	var clean atomic.Value
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		dirty := make(map[int]int)
		mu.Lock()
		shared = dirty
		mu.Unlock()
		dirty[1] = 1 // want "race"
		clean.Store(dirty)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond)
		mu.Lock()
		m := shared
		mu.Unlock()
		fmt.Println(m[1]) // want "race"
	}()
	wg.Wait()
}
