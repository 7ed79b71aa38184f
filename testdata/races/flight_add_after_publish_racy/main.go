// A singleflight-style group that counts the call on its WaitGroup only after
// publishing it: a caller that finds the call first waits on a zero counter,
// returns at once, and reads the value while it is written.
package main

import (
	"fmt"
	"sync"
	"time"
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
	g.m[key] = c
	g.mu.Unlock()
	v := fn()
	c.wg.Add(1)
	c.val = v // want "race"
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
			fmt.Println(g.do("k", func() int { time.Sleep(50 * time.Millisecond); return 42 }))
		}()
	}
	wg.Wait()
}
