// Struct copy: snap := *p reads every field of *p, so it races with the
// goroutine's write of p.n.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n, max int }

func main() {
	p := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.n = 5 // want "race"
	}()
	snap := *p // want "race"
	wg.Wait()
	fmt.Println(snap.max)
}
