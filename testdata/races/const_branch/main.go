// A branch on a value that is the same in every run: y is never
// reassigned, so y == 1 is false and the read of x behind && never runs.
package main

import "fmt"

func main() {
	done := make(chan bool)
	x, y := 0, 0
	go func() {
		x = 1
		done <- true
	}()
	if y == 1 && x == 1 {
		fmt.Println("unreachable")
	}
	<-done
}
