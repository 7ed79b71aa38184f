// A singleflight-style group: the first caller for a key makes a call, counts
// it on the call's own WaitGroup before publishing it in the map, computes its
// value and calls Done; a caller that finds the call in the map waits on that
// WaitGroup before it reads the value. No race.
package main

import (
	"fmt"
	"sync"
)

type call struct {
	wg  sync.WaitGroup
	val int
}

type group struct {
	mu sync.Mutex
	m  map[string]*call
}

func (g *group) do(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	c.val = fn()
	c.wg.Done()
	return c.val
}

func main() {
	g := &group{m: map[string]*call{}}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Println(g.do("k", func() int { return 42 }))
		}()
	}
	wg.Wait()
}
