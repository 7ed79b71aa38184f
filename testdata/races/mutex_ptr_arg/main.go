// A mutex passed by pointer: both workers lock the same *sync.Mutex around the
// shared counter. No race.
package main

import (
	"fmt"
	"sync"
)

func worker(mu *sync.Mutex, n *int, wg *sync.WaitGroup) {
	defer wg.Done()
	mu.Lock()
	*n += 1
	mu.Unlock()
}

func main() {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go worker(&mu, &n, &wg)
	go worker(&mu, &n, &wg)
	wg.Wait()
	fmt.Println(n)
}
