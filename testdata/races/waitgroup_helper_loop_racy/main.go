// The helper starts two goroutines in a loop before its one Wait: each call's
// goroutines are waited for, but the two of one call run at the same time.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

func bump(s *stats) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.n++ // want "race"
		}()
	}
	wg.Wait()
}

func main() {
	s := &stats{}
	bump(s)
	fmt.Println(s.n)
	bump(s)
	fmt.Println(s.n)
}
