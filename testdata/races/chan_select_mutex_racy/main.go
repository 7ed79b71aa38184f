// A channel of capacity 1 as a lock, taken in a select whose other case receives
// from skip. main holds the lock and sends on skip, so the goroutine goes on
// through that case without the lock: its increment and main's are unordered.
package main

import "fmt"

func main() {
	lock := make(chan struct{}, 1)
	skip := make(chan bool)
	done := make(chan bool)
	n := 0
	lock <- struct{}{}
	go func() {
		select {
		case lock <- struct{}{}:
		case <-skip:
		}
		n++ // want "race"
		done <- true
	}()
	skip <- true
	n++ // want "race"
	<-lock
	<-done
	fmt.Println(n)
}
