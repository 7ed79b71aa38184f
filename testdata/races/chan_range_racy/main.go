// range over a channel, read inside the loop: the producer updates sent after each
// send, and main reads sent in the loop body; a receive orders only what came
// before the send, not the update after it.
package main

import "fmt"

var sent int

func main() {
	c := make(chan int)
	go func() {
		for i := 1; i <= 3; i++ {
			c <- i
			sent = i // want "race"
		}
		close(c)
	}()
	for v := range c {
		fmt.Println(v, sent) // want "race"
	}
}
