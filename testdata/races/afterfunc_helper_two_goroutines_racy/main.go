// arm registers its callback with time.AfterFunc. A goroutine arms the
// callback while main writes v, and main arms it again afterwards: the
// goroutine's timer may fire before main's write, so the callback's write
// races with it.
package main

import "time"

func arm(f func()) { time.AfterFunc(time.Millisecond, f) }

func main() {
	v := 0
	done := make(chan struct{}, 2)
	bump := func() {
		v++ // want "race"
		done <- struct{}{}
	}
	go arm(bump)
	time.Sleep(10 * time.Millisecond)
	v = 10 // want "race"
	arm(bump)
	<-done
	<-done
}
