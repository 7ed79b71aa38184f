// Command covered races on hits: two goroutines increment it twice, with
// no release between the increments, so the second one's check is
// redundant (RedCard's span rule: the first one's write covers its read
// and write) and goes through an accessor; go run -race reports the race
// at the first increment's line, with or without the overlay
// (racefree.TestSpanRaces).
package main

import "fmt"

var hits int

func work(done chan<- bool) {
	for range 1000 {
		hits++ // want "race"
		hits++
	}
	done <- true
}

func main() {
	done := make(chan bool)
	go work(done)
	go work(done)
	<-done
	<-done
	fmt.Println(hits > 0)
}
