// A function defers a call that recovers and writes v, then receives from c,
// which the goroutine closes after its own write. Nothing before the
// receive can panic, so the deferred call runs after the receive: at the
// return, or on a panic that can only come later. No race.
package main

import "fmt"

func main() {
	v := 0
	c := make(chan struct{})
	go func() {
		v = 1
		close(c)
	}()
	func() {
		defer func() {
			recover()
			v = 2
		}()
		<-c
	}()
	fmt.Println(v)
}
