// Per-iteration loop variables do not help when the body itself writes the
// variable after starting the goroutine that reads it: the write and the read
// are of the same iteration's i.
package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make(chan int, 8)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- i * 10 // want "race"
		}()
		i++ // want "race"
	}
	wg.Wait()
	close(out)
	for v := range out {
		fmt.Println(v)
	}
}
