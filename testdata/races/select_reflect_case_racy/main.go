// The other case of main's select is on a channel that only reflect sends
// on: reflect.Value.Send is the runtime's send, which we do not see. The
// select completes with it while the worker sleeps, so the worker's write
// of x races with main's.
package main

import (
	"fmt"
	"reflect"
	"time"
)

func main() {
	x := 0
	c := make(chan bool)
	quit := make(chan bool)
	go func() {
		time.Sleep(50 * time.Millisecond)
		x = 1 // want "race"
		c <- true
	}()
	go reflect.ValueOf(quit).Send(reflect.ValueOf(true))
	select {
	case <-c:
	case <-quit:
	}
	x = 2 // want "race"
	<-c
	fmt.Println(x)
}
