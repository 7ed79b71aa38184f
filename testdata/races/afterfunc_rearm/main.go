// A timer callback that re-arms itself: each run starts the next only
// after its update, so the runs form one chain and never overlap.
package main

import (
	"fmt"
	"time"
)

func main() {
	left := 3
	done := make(chan bool)
	var tick func()
	tick = func() {
		left--
		if left > 0 {
			time.AfterFunc(time.Millisecond, tick)
		} else {
			done <- true
		}
	}
	time.AfterFunc(time.Millisecond, tick)
	<-done
	fmt.Println("done")
}
