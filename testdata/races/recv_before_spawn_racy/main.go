// A receive before the spawn does not order anything with the goroutine: main's
// <-c matches its own earlier send, not the goroutine's later one.
package main

import "fmt"

var result int

func main() {
	c := make(chan int, 1)
	c <- 0
	<-c
	go func() {
		result = 42 // want "race"
		c <- 1
	}()
	fmt.Println(result) // want "race"
	<-c
}
