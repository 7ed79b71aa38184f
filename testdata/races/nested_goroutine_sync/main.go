// Nested goroutines: the outer goroutine waits on a channel for the inner one
// before reading x, and main reads x after Wait. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		done := make(chan struct{})
		go func() {
			x = 1
			close(done)
		}()
		<-done
		x++
	}()
	wg.Wait()
	fmt.Println(x)
}
