// A chain of workers, all started by one go statement: each sends the counter
// it allocated to the next worker and keeps bumping it, while the next one
// bumps what it received. Two workers write one object.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

func work(in <-chan *stats, out chan<- *stats, wg *sync.WaitGroup) {
	defer wg.Done()
	if in != nil {
		prev := <-in
		prev.n++ // want "race"
	}
	mine := &stats{}
	if out != nil {
		out <- mine
	}
	mine.n++ // want "race"
}

func main() {
	const workers = 3
	links := make([]chan *stats, workers+1)
	for i := 1; i < workers; i++ {
		links[i] = make(chan *stats, 1)
	}
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go work(links[i], links[i+1], &wg)
	}
	wg.Wait()
	fmt.Println(workers)
}
