// A channel of capacity 2 is filled, two goroutines each take one slot
// after their write, and main sends twice more: its fourth send completes
// only after both receives (the k-th receive happens before send k+2
// completes), so main reads after both writes.
package main

import "fmt"

func main() {
	slots := make(chan struct{}, 2)
	slots <- struct{}{}
	slots <- struct{}{}
	var a, b int
	go func() {
		a++
		<-slots
	}()
	go func() {
		b++
		<-slots
	}()
	slots <- struct{}{}
	slots <- struct{}{}
	fmt.Println(a, b)
}
