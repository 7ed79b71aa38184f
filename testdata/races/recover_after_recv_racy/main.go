// As recover_after_recv, but the function calls check before the receive:
// check panics, the deferred call recovers and writes v before anything
// waits for the goroutine's write.
package main

import "fmt"

func check(n int) {
	if n == 0 {
		panic("zero")
	}
}

func main() {
	v := 0
	_ = v
	n := 0
	c := make(chan struct{})
	go func() {
		v = 1 // want "race"
		close(c)
	}()
	func() {
		defer func() {
			recover()
			v = 2 // want "race"
		}()
		check(n)
		<-c
	}()
	<-c
	fmt.Println(n)
}
