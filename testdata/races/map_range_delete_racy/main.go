// Range over a map vs delete: ranging reads the map, delete writes it, and nothing
// orders them. The sleep only keeps them from overlapping in time (a runtime fatal
// error otherwise); it is not synchronization.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	m := map[string]int{"a": 1, "b": 2}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		delete(m, "a") // want "race"
	}()
	time.Sleep(10 * time.Millisecond)
	sum := 0
	for _, v := range m { // want "race"
		sum += v
	}
	wg.Wait()
	fmt.Println(sum)
}
