// atomic.Int64: every access goes through its methods, so the counter cannot race.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type stats struct{ hits atomic.Int64 }

func main() {
	s := &stats{}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.hits.Add(1)
		}()
	}
	fmt.Println(s.hits.Load() >= 0)
	wg.Wait()
}
