// Variable captured by a closure: the goroutine and main both assign x, and the
// channel receive comes after main's write, so it does not order them.
package main

import "fmt"

func main() {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1 // want "race"
		done <- true
	}()
	x = 2 // want "race"
	<-done
	fmt.Println(x)
}
