// A generic method: (*Box[int]).Set runs in a goroutine and in main on the
// same box before the goroutine is joined. The writes are inside an
// instance of the generic method, which nothing orders.
package main

import (
	"fmt"
	"sync"
)

type Box[T any] struct{ v T }

func (b *Box[T]) Set(v T) {
	b.v = v // want "race"
}

func main() {
	b := &Box[int]{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.Set(1)
	}()
	b.Set(2)
	wg.Wait()
	fmt.Println(b.v)
}
