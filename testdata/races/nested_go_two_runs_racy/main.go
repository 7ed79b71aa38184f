// f runs in main and in a goroutine, and each run starts a goroutine that
// starts work: the work that main's run starts is not ordered with the
// other run's write, though the work of that run is. Shrunk from
// internal/difftest's seed 508; with one goroutine between f and work
// instead of two, the race is reported.
package main

var x int
var finished = make(chan bool, 2)

func work() {
	x = 1 // want "race"
	finished <- true
}

func main() {
	f := func() {
		x = 2 // want "race"
		go func() {
			go work()
		}()
	}
	f()
	go f()
	<-finished
	<-finished
}
