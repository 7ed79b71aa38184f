// The counter is made once, before the loop: every goroutine writes the
// same one.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	out := new(int)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			*out = i * 10 // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(*out)
}
