// A pointer passed to a goroutine as an argument: worker writes p.n while main
// also writes it.
package main

import (
	"fmt"
	"sync"
)

type point struct{ n int }

func worker(p *point, wg *sync.WaitGroup) {
	defer wg.Done()
	p.n = 1 // want "race"
}

func main() {
	p := &point{}
	var wg sync.WaitGroup
	wg.Add(1)
	go worker(p, &wg)
	p.n = 2 // want "race"
	wg.Wait()
	fmt.Println(p.n)
}
