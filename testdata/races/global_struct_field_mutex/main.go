// Field of a global struct guarded by a global mutex on both sides: no race.
package main

import (
	"fmt"
	"sync"
)

var (
	mu     sync.Mutex
	config struct {
		name  string
		limit int
	}
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		config.limit = 10
		mu.Unlock()
	}()
	mu.Lock()
	fmt.Println(config.limit)
	mu.Unlock()
	wg.Wait()
}
