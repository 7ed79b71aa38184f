// load is the f of the object's Once, but refresh also calls it directly:
// that run is outside the Once, and its write races with main's read after
// its second Do (whose f ran before the goroutine started).
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	once sync.Once
	data map[string]int
}

func (c *cache) load() { c.data = map[string]int{"k": 1} } // want "race" (not with itself)

func (c *cache) refresh() { c.load() }

func (c *cache) lookup(k string) int {
	c.once.Do(c.load)
	return c.data[k] // want "race" (not with itself)
}

func main() {
	var wg sync.WaitGroup
	c := &cache{}
	fmt.Println(c.lookup("k"))
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.refresh()
	}()
	fmt.Println(c.lookup("k"))
	wg.Wait()
}
