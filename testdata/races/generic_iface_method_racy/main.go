// A method of a generic type called through an interface, by a goroutine
// and by main before the goroutine is joined.
package main

import (
	"fmt"
	"sync"
)

type setter interface{ Set(int) }

type cell[T any] struct{ v T }

func (c *cell[T]) Set(v T) {
	c.v = v // want "race"
}

func main() {
	var s setter = &cell[int]{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Set(1)
	}()
	s.Set(2)
	wg.Wait()
	fmt.Println(s)
}
