// The fixed twin of generic_func_two_goroutines_racy: a mutex guards the
// instance's write.
package main

import (
	"fmt"
	"sync"
)

type number interface{ ~int | ~int64 }

func add[T number](mu *sync.Mutex, p *T, d T) {
	mu.Lock()
	*p += d
	mu.Unlock()
}

func main() {
	var n int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			add(&mu, &n, 1)
		}()
	}
	wg.Wait()
	fmt.Println(n)
}
