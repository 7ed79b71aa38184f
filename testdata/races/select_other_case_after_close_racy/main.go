// A janitor loops on a select between a stop channel and a ticker, and
// resets n on each tick; main increments n, then closes stop. The tick
// case does not synchronize with the close, so the janitor's write races
// with main's increments (and its final read).
package main

import (
	"fmt"
	"time"
)

func main() {
	n := 0
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				n = 0 // want "race"
			}
		}
	}()
	for range 5 {
		n++ // want "race"
		time.Sleep(2 * time.Millisecond)
	}
	close(stop)
	fmt.Println(n) // want "race"
}
