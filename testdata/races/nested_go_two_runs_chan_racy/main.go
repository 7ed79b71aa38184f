// f runs in main and in a goroutine; each run waits on its own channel for
// a goroutine that waits for one of its own. Main's read after its run of
// f is not ordered with the other run's write. Shrunk from
// internal/difftest's seed 1001; without the innermost goroutine, the race
// is reported.
package main

import "fmt"

var x int

func main() {
	f := func() {
		x = 4 // want "race"
		done := make(chan bool)
		go func() {
			res := make(chan int, 1)
			go func() {
				res <- 1
			}()
			<-res
			done <- true
		}()
		<-done
	}
	f()
	finished := make(chan bool)
	go func() {
		f()
		finished <- true
	}()
	fmt.Println(x) // want "race"
	<-finished
}
