// Unbuffered channel, send then receive: the goroutine writes result before it
// sends, main reads it after the matching receive. No race.
package main

import "fmt"

var result int

func main() {
	c := make(chan int)
	go func() {
		result = 42
		c <- 1
	}()
	<-c
	fmt.Println(result)
}
