// Main builds a result of its own with the constructor the workers use, before
// it starts them; then each worker builds its own, hands it back, and main
// reads them all once the workers are done. Main's writes go into the object
// it just allocated, never into a worker's: no two workers reach one result,
// and no race.
package main

import (
	"fmt"
	"sync"
)

type stats struct{ n int }

type result struct {
	stats *stats
	parts []int
}

func build(id int) *result {
	r := &result{stats: &stats{}}
	for i := range id + 1 {
		r.stats.n += i
		r.parts = append(r.parts, i)
	}
	return r
}

func main() {
	mine := build(7)
	results := make(chan *result, 3)
	var wg sync.WaitGroup
	for id := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- build(id)
		}()
	}
	wg.Wait()
	close(results)
	total := mine.stats.n + len(mine.parts)
	for r := range results {
		total += r.stats.n + len(r.parts)
	}
	fmt.Println(total)
}
