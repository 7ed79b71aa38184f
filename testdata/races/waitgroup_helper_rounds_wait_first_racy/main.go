// Each round makes a WaitGroup of its own and waits on it before giving it its
// worker, which waits for nothing; the deferred Waits join every worker before
// the helper returns. The worker of one round still runs when the next round
// starts its own: the two workers write the total at the same time.
package main

import (
	"fmt"
	"sync"
	"time"
)

type total struct{ n int }

func rounds(t *total) {
	for r := range 3 {
		var wg sync.WaitGroup
		defer wg.Wait()
		wg.Wait()
		wg.Go(func() {
			time.Sleep(time.Millisecond)
			t.n += r // want "race"
		})
	}
}

func main() {
	t := &total{}
	rounds(t)
	fmt.Println(t.n)
}
