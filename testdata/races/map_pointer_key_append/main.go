// A map keyed by pointers: main appends to the slice stored under a key while
// the goroutine writes the key's object. The keys and values of a map are
// different contents (m[k] gives a value, never a key), so the append writes
// only the slice's backing array, not the node. No race.
package main

import (
	"fmt"
	"sync"
)

type node struct{ hits int }

func main() {
	a := &node{}
	uses := map[*node][]int{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.hits++
	}()
	uses[a] = append(uses[a], 1)
	uses[a] = append(uses[a], 2)
	wg.Wait()
	fmt.Println(a.hits, uses[a])
}
