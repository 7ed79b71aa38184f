// The other case of main's select is on a channel that a function literal
// sends on, and only reflect calls that literal: code we do not see gets
// the channel through what the literal captures. The select completes with
// it while the worker sleeps, so the worker's write of x races with main's.
package main

import (
	"fmt"
	"reflect"
	"time"
)

func work(x *int, done chan<- bool) {
	time.Sleep(50 * time.Millisecond)
	*x = 1 // want "race"
	done <- true
}

func main() {
	quit := make(chan bool)
	stop := func() { quit <- true }
	go reflect.ValueOf(stop).Call(nil)
	x := 0
	done := make(chan bool)
	go work(&x, done)
	select {
	case <-quit:
	case <-done:
	}
	x = 2 // want "race"
	<-done
	fmt.Println(x)
}
