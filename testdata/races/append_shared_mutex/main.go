// append to a shared slice with both appends under one mutex. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var (
		mu    sync.Mutex
		items []int
	)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		items = append(items, 1)
		mu.Unlock()
	}()
	mu.Lock()
	items = append(items, 2)
	mu.Unlock()
	wg.Wait()
	fmt.Println(len(items))
}
