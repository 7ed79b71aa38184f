// With the value too, the range reads the array while the goroutine
// writes an element.
package main

import "fmt"

func main() {
	var slots [3]int
	done := make(chan bool)
	go func() {
		slots[1] = 5 // want "race"
		done <- true
	}()
	n := 0
	for i, v := range slots { // want "race"
		n += i + v
	}
	<-done
	fmt.Println(n)
}
