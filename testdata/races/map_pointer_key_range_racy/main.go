// A map keyed by pointers: the goroutine ranges over the map and writes
// through each key while main writes the same node. A range reads the keys,
// so the key's object is written by both goroutines: a race.
package main

import (
	"fmt"
	"sync"
)

type node struct{ hits int }

func main() {
	a := &node{}
	uses := map[*node][]int{a: {1}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := range uses {
			k.hits++ // want "race"
		}
	}()
	a.hits = 5 // want "race"
	wg.Wait()
	fmt.Println(a.hits, len(uses))
}
