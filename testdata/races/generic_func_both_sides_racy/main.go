// Both sides of the race are in the same generic function instance:
// bump[int] increments *p from a goroutine and from main, unordered.
// Shrunk from internal/difftest's misses; generic_field_racy, with one side
// outside the instance, is reported.
package main

import "fmt"

func bump[T ~int | ~int64](p *T) {
	*p += 1 // want "race"
}

func main() {
	var n int
	done := make(chan bool)
	go func() {
		bump(&n)
		done <- true
	}()
	bump(&n)
	<-done
	fmt.Println(n)
}
