// A function value as the goroutine: job points to bump, which writes total while
// main reads it.
package main

import (
	"fmt"
	"sync"
)

var total int

func bump(wg *sync.WaitGroup) {
	defer wg.Done()
	total += 10 // want "race"
}

func main() {
	var wg sync.WaitGroup
	job := bump
	wg.Add(1)
	go job(&wg)
	fmt.Println(total) // want "race"
	wg.Wait()
}
