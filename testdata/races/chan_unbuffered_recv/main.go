// Unbuffered channel, receive before send completes: the goroutine writes result
// and then receives; main's send completes only after that receive, so main's
// read after the send is ordered. No race.
package main

import (
	"fmt"
	"sync"
)

var result int

func main() {
	c := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		result = 42
		<-c
	}()
	c <- 1
	fmt.Println(result)
	wg.Wait()
}
