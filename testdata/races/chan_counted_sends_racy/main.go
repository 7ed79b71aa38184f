// With one send fewer, main's third send completes after one receive,
// whichever goroutine made it: the other goroutine's write is unordered
// with main's read.
package main

import (
	"fmt"
	"time"
)

func main() {
	slots := make(chan struct{}, 2)
	slots <- struct{}{}
	slots <- struct{}{}
	var a, b int
	go func() {
		a++ // want "race"
		<-slots
	}()
	go func() {
		b++ // want "race"
		<-slots
	}()
	slots <- struct{}{}
	time.Sleep(10 * time.Millisecond) // let both goroutines run: no happens-before
	fmt.Println(a, b)                 // want "race"
}
