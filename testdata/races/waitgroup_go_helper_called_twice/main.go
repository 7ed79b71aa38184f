// WaitGroup.Go in a helper called twice, each call waiting on its own
// WaitGroup: the goroutine of each call ends before the call returns. No race.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

func bump(s *stats) {
	var wg sync.WaitGroup
	wg.Go(func() {
		s.n++
	})
	wg.Wait()
}

func main() {
	s := &stats{}
	bump(s)
	fmt.Println(s.n)
	bump(s)
	fmt.Println(s.n)
}
