// mode is set after the goroutines start: the second goroutine may see 2
// and write limit while the first reads it.
package main

import "fmt"

func main() {
	var limit, mode int
	done := make(chan bool, 2)
	mode = 1
	go func() {
		fmt.Println(limit) // want "race"
		done <- true
	}()
	go func() {
		if mode == 2 { // want "race"
			limit = 10 // want "race"
		}
		done <- true
	}()
	mode = 2 // want "race"
	<-done
	<-done
}
