// A singleflight-style group whose first caller calls Done before it stores
// the value: a caller that finds the call in the map and waits may read the
// value while it is written.
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
		return c.val // want "race"
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	c.wg.Done()
	c.val = fn() // want "race"
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
