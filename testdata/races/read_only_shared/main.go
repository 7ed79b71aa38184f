// Read-only sharing: greeting is initialized before any goroutine starts and then
// only read (string contents are immutable). Reads never race with reads.
package main

import "fmt"

var greeting = "hello"

func main() {
	results := make(chan int, 2)
	go func() {
		results <- len(greeting)
	}()
	go func() {
		results <- int(greeting[0])
	}()
	a, b := <-results, <-results
	fmt.Println(a+b, greeting)
}
