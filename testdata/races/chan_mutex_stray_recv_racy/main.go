// A channel of capacity 1 as a lock, but the goroutine receives from it without
// having sent: it empties the slot main filled, sends itself, and both goroutines
// go on as if each held the lock. Their increments of n are unordered.
package main

import "fmt"

func main() {
	lock := make(chan bool, 1)
	done := make(chan bool)
	n := 0
	lock <- true
	go func() {
		<-lock
		lock <- true
		n++ // want "race"
		<-lock
		done <- true
	}()
	n++ // want "race"
	<-done
	fmt.Println(n)
}
