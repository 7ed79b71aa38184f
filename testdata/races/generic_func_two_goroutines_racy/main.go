// A generic function run by two goroutines on one counter: both writes are
// inside the instance add[int64], and nothing orders them.
package main

import (
	"fmt"
	"sync"
)

type number interface{ ~int | ~int64 }

func add[T number](p *T, d T) {
	*p += d // want "race"
}

func main() {
	var n int64
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			add(&n, 1)
		}()
	}
	wg.Wait()
	fmt.Println(n)
}
