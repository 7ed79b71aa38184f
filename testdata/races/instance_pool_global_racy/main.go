// Each worker allocates a counter of its own, but the first one published in
// a global is the one every worker then bumps: the workers of one go
// statement share an object they allocate, through a global.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

var (
	mu    sync.Mutex
	first *stats
)

func work(wg *sync.WaitGroup) {
	defer wg.Done()
	mine := &stats{}
	mu.Lock()
	if first == nil {
		first = mine
	}
	s := first
	mu.Unlock()
	s.n++ // want "race"
}

func main() {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go work(&wg)
	}
	wg.Wait()
	fmt.Println(first.n)
}
