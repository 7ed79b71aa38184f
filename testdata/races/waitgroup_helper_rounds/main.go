// A helper that runs rounds, each with a WaitGroup of its own made in the
// loop: a round's worker is waited for before the next round makes its
// WaitGroup and starts the next worker. main reads between two calls of the
// helper. No race.
package main

import (
	"fmt"
	"sync"
)

type total struct{ n int }

func rounds(t *total) {
	for r := range 3 {
		var wg sync.WaitGroup
		wg.Go(func() { t.n += r })
		wg.Wait()
	}
}

func main() {
	t := &total{}
	rounds(t)
	fmt.Println(t.n)
	rounds(t)
	fmt.Println(t.n)
}
