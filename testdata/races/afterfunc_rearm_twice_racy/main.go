// The callback arms two successors: the two may run at the same time.
package main

import (
	"fmt"
	"time"
)

func main() {
	left := 4
	done := make(chan bool, 8)
	var tick func()
	tick = func() {
		left--        // want "race"
		if left > 0 { // want "race"
			time.AfterFunc(time.Millisecond, tick)
			time.AfterFunc(time.Millisecond, tick)
		}
		done <- true
	}
	time.AfterFunc(time.Millisecond, tick)
	time.Sleep(100 * time.Millisecond)
	fmt.Println(len(done))
}
