// Map lookup vs assignment, both under the same mutex. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	m := map[string]int{"a": 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		m["a"] = 2
		mu.Unlock()
	}()
	mu.Lock()
	v := m["a"]
	mu.Unlock()
	wg.Wait()
	fmt.Println(v)
}
