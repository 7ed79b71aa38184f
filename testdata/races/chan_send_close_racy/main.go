// A send and a close of one channel, unordered: the race detector reports
// them (send reads the channel, close writes it), whether or not the send
// panics.
package main

import "fmt"

func main() {
	c := make(chan int, 1)
	done := make(chan bool, 2)
	go func() {
		defer func() {
			recover()
			done <- true
		}()
		c <- 1 // want "race"
	}()
	go func() {
		close(c) // want "race"
		done <- true
	}()
	<-done
	<-done
	fmt.Println("done")
}
