// The fixed twin of generic_method_racy: (*Box[int]).Set holds the box's
// mutex while it writes.
package main

import (
	"fmt"
	"sync"
)

type Box[T any] struct {
	mu sync.Mutex
	v  T
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
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
