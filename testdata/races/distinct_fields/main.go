// Different fields of one struct: the goroutine writes p.a, main writes p.b.
// Distinct memory locations, so no race.
package main

import (
	"fmt"
	"sync"
)

type pair struct{ a, b int }

func main() {
	p := &pair{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.a = 1
	}()
	p.b = 2
	wg.Wait()
	fmt.Println(p.a, p.b)
}
