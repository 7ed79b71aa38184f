// A second sender on the same channel: main's first receive matches the helper's
// send (the producer can't send before the gate opens), so it does not order the
// producer's write before main's read.
package main

import "fmt"

var result int

func main() {
	c := make(chan int)
	gate := make(chan struct{})
	go func() { // the producer main means to wait for
		<-gate
		result = 42 // want "race"
		c <- 1
	}()
	go func() { // a second sender on c
		c <- 2
		close(gate)
	}()
	<-c
	fmt.Println(result) // want "race"
	<-c
}
