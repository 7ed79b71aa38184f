// Struct field through a pointer, ordered by a channel: the write happens before
// the send, the send before the receive, and the receive before main's read.
package main

import "fmt"

type counter struct{ n int }

func main() {
	c := &counter{}
	done := make(chan struct{})
	go func() {
		c.n = 1
		done <- struct{}{}
	}()
	<-done
	fmt.Println(c.n)
}
