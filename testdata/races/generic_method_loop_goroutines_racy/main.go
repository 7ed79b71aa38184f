// A method of a generic type run by goroutines started in a loop: each
// goroutine writes the same b.v through (*box[int]).set, unordered.
// Found by internal/difftest (seed 10); the non-generic twin is reported.
package main

import "sync"

type box[V any] struct{ v V }

func (b *box[V]) set(v V) { b.v = v } // want "race"

func main() {
	b := &box[int]{}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.set(i)
		}()
	}
	wg.Wait()
}
