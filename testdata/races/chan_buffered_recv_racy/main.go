// The same shape on a buffered channel: a send into free buffer space completes
// without waiting for the receive, so main's read is unordered with the write.
package main

import (
	"fmt"
	"sync"
)

var result int

func main() {
	c := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		result = 42 // want "race"
		<-c
	}()
	c <- 1
	fmt.Println(result) // want "race"
	wg.Wait()
}
