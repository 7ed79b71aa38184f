// A Group counts the goroutines its Go starts on its own WaitGroup, and
// its Wait waits for them, as errgroup's does. search fills the results
// on one group and waits for it before it returns; main reads the results
// after search. count uses another group, so the Add inside Go may be on
// either of two groups. No race.
package main

import (
	"fmt"
	"sync"
)

type Group struct {
	wg sync.WaitGroup
}

func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *Group) Wait() { g.wg.Wait() }

var mu sync.Mutex

func search(results []int) {
	g := new(Group)
	for i := range results {
		g.Go(func() {
			mu.Lock()
			results[i] = i * i
			mu.Unlock()
		})
	}
	g.Wait()
}

func count() int {
	n := 0
	g := new(Group)
	g.Go(func() { n = 1 })
	g.Wait()
	return n
}

func main() {
	results := make([]int, 3)
	search(results)
	fmt.Println(results, count())
}
