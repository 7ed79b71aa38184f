// copy into a shared slice, then a send; main reads dst only after the receive.
// The source is only read on both sides. No race.
package main

import "fmt"

func main() {
	src := []int{1, 2, 3}
	dst := make([]int, 3)
	done := make(chan struct{})
	go func() {
		copy(dst, src)
		done <- struct{}{}
	}()
	fmt.Println(src[0])
	<-done
	fmt.Println(dst[0])
}
