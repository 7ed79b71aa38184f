// sync.WaitGroup: each worker's Done happens before the Wait it releases, and main
// reads the results only after Wait. No race.
package main

import (
	"fmt"
	"sync"
)

type result struct{ sum int }

func main() {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 10 {
			r.sum += i
		}
	}()
	wg.Wait()
	fmt.Println(r.sum)
}
