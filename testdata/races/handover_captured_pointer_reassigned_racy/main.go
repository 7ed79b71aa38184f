// The captured variable is declared outside the loop and assigned in each
// iteration: every goroutine shares the one variable, so an earlier
// iteration's goroutine may load the next iteration's object and update it
// while main fills it.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func main() {
	var wg sync.WaitGroup
	var p *counter
	for i := range 3 {
		p = &counter{} // want "race"
		p.n = i        // want "race"
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.n++ // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(p.n)
}
