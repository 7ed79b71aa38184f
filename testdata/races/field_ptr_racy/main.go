// Struct field through a pointer: the goroutine writes c.n while main reads it;
// nothing orders the two accesses.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func main() {
	c := &counter{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.n = 1 // want "race"
	}()
	fmt.Println(c.n) // want "race"
	wg.Wait()
}
