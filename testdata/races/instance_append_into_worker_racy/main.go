// Like instance_rewired_by_main_racy, through append: main appends the first
// worker's counter to an empty slice of the second worker's array, which has
// room, so the append writes into that array (its result is not a new
// array), and both workers then bump one counter.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

type box struct{ counters []*stats }

func work(out chan<- *box, ready *sync.WaitGroup, resume <-chan struct{}, done *sync.WaitGroup) {
	defer done.Done()
	b := &box{counters: make([]*stats, 1, 2)}
	b.counters[0] = &stats{}
	out <- b
	ready.Done()
	<-resume
	b.counters[0].n++ // want "race"
}

func main() {
	const workers = 2
	out := make(chan *box, workers)
	resume := make(chan struct{})
	var ready, done sync.WaitGroup
	ready.Add(workers)
	done.Add(workers)
	for range workers {
		go work(out, &ready, resume, &done)
	}
	ready.Wait()
	first := <-out
	into := (<-out).counters[:0]
	_ = append(into, first.counters[0])
	close(resume)
	done.Wait()
	fmt.Println(first.counters[0].n)
}
