// Goroutines spawned in a loop each write their own slice element s[i]: distinct
// locations, no race. With one pseudo-field [*] per array a static analysis sees
// every goroutine write the same location and may report a false alarm here.
package main

import (
	"fmt"
	"sync"
)

func main() {
	s := make([]int, 4)
	var wg sync.WaitGroup
	for i := range s {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s[i] = i * i
		}()
	}
	wg.Wait()
	fmt.Println(s)
}
