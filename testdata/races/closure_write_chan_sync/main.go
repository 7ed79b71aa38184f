// Variable captured by a closure: main writes x only after receiving from the
// goroutine, whose write happens before its send. No race.
package main

import "fmt"

func main() {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	<-done
	x = 2
	fmt.Println(x)
}
