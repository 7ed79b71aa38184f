// The helper panics between starting its goroutine and waiting for it, and
// main recovers: main goes on while the goroutine may still be writing.
package main

import (
	"fmt"
	"sync"
	"time"
)

type stats struct{ n int }

func bump(s *stats, fail bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.n++ // want "race"
	}()
	if fail {
		panic("failed")
	}
	wg.Wait()
}

func tryBump(s *stats) {
	defer func() { _ = recover() }()
	bump(s, true)
}

func main() {
	s := &stats{}
	tryBump(s)
	fmt.Println(s.n) // want "race"
	time.Sleep(10 * time.Millisecond)
}
