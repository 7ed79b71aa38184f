// copy into a[:6] writes elements 0-5, and the goroutine writes a[5]: the same
// element, unordered.
package main

import "fmt"

func main() {
	a := make([]int, 10)
	b := make([]int, 10)
	done := make(chan bool)
	go func() {
		a[5] = 1 // want "race"
		done <- true
	}()
	copy(a[:6], b[:6]) // want "race"
	<-done
	fmt.Println(a)
}
