// Slice element: main reads s[0] after wg.Wait, which the goroutine's Done (after
// its write) happens before. No race.
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
		s[0] = 7
	}()
	wg.Wait()
	fmt.Println(s[0])
}
