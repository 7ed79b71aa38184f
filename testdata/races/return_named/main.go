// Named result captured by a goroutine (Go's TestNoRaceReturn): f writes a before
// the go statement, and both the goroutine and the return statement only read a.
// No race.
package main

import "fmt"

func f(c chan int) (a, b int) {
	a = 42
	go func() {
		_ = a
		c <- 1
	}()
	return a, 10
}

func main() {
	c := make(chan int)
	a, b := f(c)
	<-c
	fmt.Println(a, b)
}
