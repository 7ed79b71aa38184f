// The same method is the f of two different Once fields of one object: each
// Once runs it once, so it runs twice, in two goroutines, and its updates
// race.
package main

import (
	"fmt"
	"sync"
)

type stats struct {
	first, second sync.Once
	loads         int
}

func (s *stats) load() { s.loads++ } // want "race"

func main() {
	var wg sync.WaitGroup
	s := &stats{}
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.first.Do(s.load)
	}()
	go func() {
		defer wg.Done()
		s.second.Do(s.load)
	}()
	wg.Wait()
	fmt.Println(s.loads)
}
