// A helper starts the function it is given in a goroutine and then writes
// x itself: the write comes after the go statement, so it races with the
// goroutine's read. The goroutine starts inside the call of the helper,
// not after it returns.
package main

import "fmt"

var x, seen int

func start(f func()) {
	go func() { f() }()
	x = 1 // want "race"
}

func main() {
	done := make(chan bool)
	start(func() {
		seen = x // want "race"
		done <- true
	})
	<-done
	fmt.Println(seen)
}
