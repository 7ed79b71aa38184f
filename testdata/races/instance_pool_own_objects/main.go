// A worker pool: one go statement in a loop starts the workers, and each
// worker builds a map, a slice and a struct of its own, reached through the
// result it allocates, and hands them back through a channel; main collects
// them in a results slice once all are done. Each allocation site stands for
// one object per worker, and no worker ever reaches another's: no race.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

type result struct {
	count map[int]int
	items []int
	stats *stats
}

func build(id int) *result {
	r := &result{count: map[int]int{}, stats: &stats{}}
	for i := range 3 {
		r.count[i%2] += id
		r.items = append(r.items, i)
		r.stats.n++
	}
	return r
}

func main() {
	const workers = 4
	out := make(chan *result, workers)
	var wg sync.WaitGroup
	for id := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- build(id)
		}()
	}
	wg.Wait()
	close(out)
	var results []*result
	for r := range out {
		results = append(results, r)
	}
	total := 0
	for _, r := range results {
		total += len(r.count) + len(r.items) + r.stats.n
	}
	fmt.Println(total)
}
