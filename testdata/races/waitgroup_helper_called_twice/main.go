// A helper that starts a goroutine and waits for it on a WaitGroup of its own
// activation, called twice: each call's goroutine ends before its call
// returns, so the two goroutines and main's reads between the calls are
// ordered. No race.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

func bump(s *stats) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.n++
	}()
	wg.Wait()
}

func main() {
	s := &stats{}
	bump(s)
	fmt.Println(s.n)
	bump(s)
	fmt.Println(s.n)
}
