// A go statement outside any loop, in a function called twice: it starts two
// goroutines, which race with each other on status.
package main

import (
	"fmt"
	"sync"
)

var status int

func start(wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		status++ // want "race"
	}()
}

func main() {
	var wg sync.WaitGroup
	start(&wg)
	start(&wg)
	wg.Wait()
	fmt.Println(status)
}
