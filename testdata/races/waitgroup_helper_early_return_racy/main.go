// The helper returns early, before its Wait, on one path: its goroutine may
// still be writing when main reads.
package main

import (
	"fmt"
	"sync"
	"time"
)

type stats struct{ n int }

func bump(s *stats, quick bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.n++ // want "race"
	}()
	if quick {
		return
	}
	wg.Wait()
}

func main() {
	s := &stats{}
	bump(s, true)
	fmt.Println(s.n) // want "race"
	time.Sleep(10 * time.Millisecond)
}
