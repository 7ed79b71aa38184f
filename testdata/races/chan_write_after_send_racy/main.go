// Write after the send: the goroutine sends first and writes x afterwards, so the
// receive orders nothing with that write.
package main

import "fmt"

func main() {
	x := 0
	c := make(chan bool)
	done := make(chan bool)
	go func() {
		c <- true
		x = 1 // want "race"
		done <- true
	}()
	<-c
	fmt.Println(x) // want "race"
	<-done
}
