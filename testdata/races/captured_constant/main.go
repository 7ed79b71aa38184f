// mode is set once, before the goroutines start, and never again: the
// second goroutine's check of mode always fails, so it never writes limit.
package main

import "fmt"

func main() {
	var limit, mode int
	done := make(chan bool, 2)
	mode = 1
	go func() {
		fmt.Println(limit)
		done <- true
	}()
	go func() {
		if mode == 2 {
			limit = 10
		}
		done <- true
	}()
	<-done
	<-done
}
