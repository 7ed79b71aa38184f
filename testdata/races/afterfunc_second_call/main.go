// main calls time.AfterFunc twice and writes v between the calls; only the
// second callback touches v, and its goroutine starts after the second
// call. No race.
package main

import (
	"fmt"
	"time"
)

func main() {
	v := 0
	first := make(chan struct{})
	second := make(chan struct{})
	f := func() {
		v = 2
		close(second)
	}
	time.AfterFunc(time.Millisecond, func() { close(first) })
	v = 1
	time.AfterFunc(time.Millisecond, f)
	<-first
	<-second
	fmt.Println(v)
}
