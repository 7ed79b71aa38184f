// A goroutine that starts another instance of itself (the same go statement)
// and hands it the counter it allocated, which both then write.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

func work(s *stats, depth int, wg *sync.WaitGroup) {
	defer wg.Done()
	mine := &stats{}
	if depth > 0 {
		wg.Add(1)
		go work(mine, depth-1, wg)
	}
	if s != nil {
		s.n++ // want "race"
	}
	mine.n++ // want "race"
}

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go work(nil, 3, &wg)
	wg.Wait()
	fmt.Println("done")
}
