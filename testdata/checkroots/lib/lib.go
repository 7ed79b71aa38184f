// Package lib has no main function and no tests: nothing runs its code, so
// chordgo check has nothing to analyze (the race in Set is never run).
package lib

var counter int

// Set races with itself: the goroutine's write and the caller's.
func Set() {
	go func() { counter = 1 }()
	counter = 2
}
