// Each round starts workers that fill their own slot and waits for them
// before main reads and resets the slots: the workers of one round run
// while no other round's do, and main touches the slots only between
// rounds.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var slots [3]int
	var wg sync.WaitGroup
	for round := 0; round < 4; round++ {
		wg.Add(len(slots))
		for i := 0; i < len(slots); i++ {
			go func(i int) {
				slots[i] += round
				wg.Done()
			}(i)
		}
		wg.Wait()
		for i := 0; i < len(slots); i++ {
			fmt.Println(slots[i])
			slots[i] = 0
		}
	}
}
