// Package tested is run only by its test: with -tests=false nothing runs
// its code.
package tested

var counter int

// Set writes counter in a goroutine and in the caller, unordered.
func Set() {
	done := make(chan bool)
	go func() {
		counter = 1 // races with the write below
		done <- true
	}()
	counter = 2
	<-done
}
