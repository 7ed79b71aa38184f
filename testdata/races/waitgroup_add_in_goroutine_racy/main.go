// sync.WaitGroup misuse: the goroutine calls Add itself, and here only after
// main's Wait returned (the counter was still 0), so Done is not ordered before
// main's write of x and the two writes race.
package main

import (
	"fmt"
	"sync"
)

var x int

func main() {
	var wg sync.WaitGroup
	start := make(chan struct{})
	done := make(chan struct{})
	go func() {
		<-start
		wg.Add(1)
		x = 1 // want "race"
		wg.Done()
		close(done)
	}()
	wg.Wait()
	close(start)
	x = 2 // want "race"
	<-done
	fmt.Println(x)
}
