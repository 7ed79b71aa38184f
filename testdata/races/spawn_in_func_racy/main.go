// A goroutine started by a function called from main: start spawns the writer,
// and main reads status afterwards without synchronization.
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
		status = 1 // want "race"
	}()
}

func main() {
	var wg sync.WaitGroup
	start(&wg)
	fmt.Println(status) // want "race"
	wg.Wait()
}
