// Ranging over an array with only the index does not read the array (its
// length is constant, so Go does not evaluate the range expression): no
// race with the goroutine's write of an element.
package main

import "fmt"

func main() {
	var slots [3]int
	done := make(chan bool)
	go func() {
		slots[1] = 5
		done <- true
	}()
	n := 0
	for i := range slots {
		n += i
	}
	<-done
	fmt.Println(n, slots[1])
}
