// Generic code: store[int] writes b.v from a goroutine while main reads b.v;
// the access is inside an instantiated generic function.
package main

import (
	"fmt"
	"sync"
)

type box[T any] struct{ v T }

func store[T any](b *box[T], v T) {
	b.v = v // want "race"
}

func main() {
	b := &box[int]{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		store(b, 3)
	}()
	fmt.Println(b.v) // want "race"
	wg.Wait()
}
