// select with default orders nothing: the worker is still parked on start, so the
// select takes default, and main's read of result races with the worker's write.
package main

import "fmt"

var result int

func main() {
	start := make(chan struct{})
	done := make(chan struct{}, 1)
	go func() {
		<-start
		result = 42 // want "race"
		done <- struct{}{}
	}()
	select {
	case <-done:
	default:
	}
	close(start)
	fmt.Println(result) // want "race"
	<-done
}
