// A mutex declared inside the function: every call locks a fresh mutex, so two
// goroutines calling add never share a lock (one allocation site, many objects).
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func add(c *counter, wg *sync.WaitGroup) {
	defer wg.Done()
	var mu sync.Mutex
	mu.Lock()
	c.n++ // want "race"
	mu.Unlock()
}

func main() {
	c := &counter{}
	var wg sync.WaitGroup
	wg.Add(2)
	go add(c, &wg)
	go add(c, &wg)
	wg.Wait()
	fmt.Println(c.n)
}
