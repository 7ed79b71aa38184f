// A slice of a local array aliases it: b[0] is a[1], so the goroutine's write
// through b races with main's write of a[1].
package main

import "fmt"

func main() {
	var a [4]int
	b := a[1:]
	done := make(chan bool)
	go func() {
		b[0] = 1 // want "race"
		done <- true
	}()
	a[1] = 2 // want "race"
	<-done
	fmt.Println(a)
}
