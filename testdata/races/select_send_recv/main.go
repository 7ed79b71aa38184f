// select on both sides (Go's TestNoRaceSelect1): nobody receives from c1, so the
// two selects can only meet on c; the goroutine's send on c, after its write of x,
// is ordered before main's write after the select. No race.
package main

import "fmt"

func main() {
	x := 0
	compl := make(chan bool)
	c := make(chan bool)
	c1 := make(chan bool)
	go func() {
		x = 1
		select {
		case c <- true:
		case c1 <- true:
		}
		compl <- true
	}()
	select {
	case <-c:
	case c1 <- true:
	}
	x = 2
	<-compl
	fmt.Println(x)
}
