// select with a send case on a buffered channel: the worker is still parked on
// start, so main's select takes the send on b, which needs no receiver, and main's
// write of x races with the worker's (the receive from c comes after main's write).
package main

import "fmt"

func main() {
	x := 0
	start := make(chan bool)
	compl := make(chan bool)
	c := make(chan bool)
	c1 := make(chan bool)
	b := make(chan bool, 1) // never received from
	go func() {
		<-start
		x = 1 // want "race"
		select {
		case c <- true:
		case c1 <- true:
		}
		compl <- true
	}()
	select {
	case <-c:
	case b <- true:
	}
	close(start)
	x = 2 // want "race"
	<-c
	<-compl
	fmt.Println(x)
}
