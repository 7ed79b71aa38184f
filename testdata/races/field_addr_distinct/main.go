// Pointer to a field passed to a goroutine: inc writes s.hits through &s.hits
// while main writes the other field s.misses. Distinct locations, no race.
package main

import (
	"fmt"
	"sync"
)

type server struct{ hits, misses int }

func inc(p *int, wg *sync.WaitGroup) {
	defer wg.Done()
	*p++
}

func main() {
	s := &server{}
	var wg sync.WaitGroup
	wg.Add(1)
	go inc(&s.hits, &wg)
	s.misses++
	wg.Wait()
	fmt.Println(s.hits, s.misses)
}
