// Named result captured by a goroutine that writes it: the return statement reads a
// after the go statement, unordered with the goroutine's write.
package main

import "fmt"

func f(c chan int) (a, b int) {
	a = 42
	go func() {
		a = 1 // want "race"
		c <- 1
	}()
	return a, 10 // want "race"
}

func main() {
	c := make(chan int)
	a, b := f(c)
	<-c
	fmt.Println(a, b)
}
