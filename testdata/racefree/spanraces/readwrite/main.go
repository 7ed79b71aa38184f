// Command readwrite races on x between main's write and the goroutine's
// read: main reads x, then writes it; the read races with nothing (the
// goroutine only reads), so a read check, which does not cover a later
// write, must leave the write its check (racefree.TestSpanRaces).
package main

import "fmt"

var x int

func main() {
	done := make(chan int)
	go func() {
		done <- x // want "race"
	}()
	v := x
	x = v + 1 // want "race"
	fmt.Println(<-done + x)
}
