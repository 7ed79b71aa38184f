// sync.WaitGroup.Go in a range loop: each function literal writes the
// element at its own index i (a variable per iteration), and each value of
// the literal runs once, in the goroutine its Go call starts, so no two
// goroutines write the same element. main reads after Wait.
package main

import (
	"fmt"
	"sync"
)

func main() {
	words := []string{"a", "bb", "ccc"}
	lens := make([]int, len(words))
	var wg sync.WaitGroup
	for i, w := range words {
		wg.Go(func() {
			lens[i] = len(w)
		})
	}
	wg.Wait()
	fmt.Println(lens)
}
