// The helper that fills a result is also called on a result that a goroutine
// already reads: that call's writes race with the reader, though the other
// call passes a result no one else has yet.
package main

import (
	"fmt"
	"sync"
)

type result struct{ name string }

func fill(r *result, name string) {
	if name != "" {
		r.name = name // want "race"
	}
}

func main() {
	fresh := &result{}
	fill(fresh, "fresh")
	shared := &result{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println(shared.name) // want "race"
	}()
	fill(shared, "shared")
	wg.Wait()
	fmt.Println(fresh.name)
}
