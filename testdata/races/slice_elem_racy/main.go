// Slice element: the goroutine writes s[0] while main reads it.
package main

import (
	"fmt"
	"sync"
)

func main() {
	s := make([]int, 3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s[0] = 7 // want "race"
	}()
	fmt.Println(s[0]) // want "race"
	wg.Wait()
}
