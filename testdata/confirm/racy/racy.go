// Package racy has two races that show in any run of its test: a
// goroutine and its caller both write, and the receive that waits for the
// goroutine comes after both writes.
package racy

var hits int

// Hit writes hits in a goroutine and in the caller, unordered.
func Hit() int {
	done := make(chan bool)
	go func() {
		hits = 1 // want "race"
		done <- true
	}()
	hits = 2 // want "race"
	<-done
	return hits
}

var name string

// Rename writes name in a goroutine and in the caller, unordered.
func Rename() string {
	done := make(chan bool)
	go func() {
		name = "goroutine" // want "race"
		done <- true
	}()
	name = "caller" // want "race"
	<-done
	return name
}
