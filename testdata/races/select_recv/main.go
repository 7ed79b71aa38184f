// select with a receive case: main reads result only in the case that received
// from done, which the goroutine closes after writing. No race.
package main

import "fmt"

var result int

func main() {
	done := make(chan struct{})
	quit := make(chan struct{})
	go func() {
		result = 42
		close(done)
	}()
	select {
	case <-done:
		fmt.Println(result)
	case <-quit:
		fmt.Println("quit")
	}
}
