// Promoted field of an embedded struct: s.n and s.base.n are the same location,
// written by the goroutine and read by main without synchronization.
package main

import (
	"fmt"
	"sync"
)

type base struct{ n int }

type server struct {
	base
	name string
}

func main() {
	s := &server{name: "a"}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.n = 1 // want "race"
	}()
	fmt.Println(s.base.n) // want "race"
	wg.Wait()
}
