// The f given to a's Once writes through another pointer, b: b's reader waits
// on b's Once, whose f is another one, so the write races with the read.
package main

import (
	"fmt"
	"sync"
)

type slot struct {
	once sync.Once
	val  int
}

func main() {
	done := make(chan bool)
	a, b := &slot{}, &slot{}
	go func() {
		a.once.Do(func() {
			b.val = 1 // want "race" (not with itself)
		})
		done <- true
	}()
	b.once.Do(func() {})
	fmt.Println(b.val) // want "race" (not with itself)
	<-done
}
