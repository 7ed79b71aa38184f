// Each worker allocates a box with a counter of its own and hands the box to
// main, which points the second box at the first box's counter before it lets
// the workers go on: both workers then bump one counter. A write by another
// goroutine into a worker's object can hand it another worker's object.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

type box struct{ counter *stats }

func work(out chan<- *box, ready *sync.WaitGroup, resume <-chan struct{}, done *sync.WaitGroup) {
	defer done.Done()
	b := &box{counter: &stats{}}
	out <- b
	ready.Done()
	<-resume
	b.counter.n++ // want "race"
}

func main() {
	out := make(chan *box, 2)
	resume := make(chan struct{})
	var ready, done sync.WaitGroup
	for range 2 {
		ready.Add(1)
		done.Add(1)
		go work(out, &ready, resume, &done)
	}
	ready.Wait()
	first, second := <-out, <-out
	second.counter = first.counter
	close(resume)
	done.Wait()
	fmt.Println(first.counter.n)
}
