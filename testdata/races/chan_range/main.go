// range over a channel: the producer sets sent before closing; the range loop ends
// only after it observes the close, so main's read of sent is ordered. No race.
package main

import "fmt"

var sent int

func main() {
	c := make(chan int)
	go func() {
		for i := 1; i <= 3; i++ {
			c <- i
		}
		sent = 3
		close(c)
	}()
	sum := 0
	for v := range c {
		sum += v
	}
	fmt.Println(sum, sent)
}
