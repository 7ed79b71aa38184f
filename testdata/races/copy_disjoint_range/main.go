// copy into a[:5] writes elements 0-4; the goroutine writes a[5]: disjoint
// elements of one array, no race.
package main

import "fmt"

func main() {
	a := make([]int, 10)
	b := make([]int, 10)
	done := make(chan bool)
	go func() {
		a[5] = 1
		done <- true
	}()
	copy(a[:5], b[:5])
	<-done
	fmt.Println(a)
}
