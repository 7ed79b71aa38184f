// Pointer to a field passed to a goroutine: inc writes s.hits through &s.hits
// while main reads s.hits directly.
package main

import (
	"fmt"
	"sync"
)

type server struct{ hits, misses int }

func inc(p *int, wg *sync.WaitGroup) {
	defer wg.Done()
	*p++ // want "race"
}

func main() {
	s := &server{}
	var wg sync.WaitGroup
	wg.Add(1)
	go inc(&s.hits, &wg)
	fmt.Println(s.hits) // want "race"
	wg.Wait()
}
