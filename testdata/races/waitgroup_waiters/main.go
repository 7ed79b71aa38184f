// Workers fill their slots; several readers wait on the same WaitGroup and
// then read every slot. All workers start, counted, before any reader.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var slots [3]int
	var workers sync.WaitGroup
	done := make(chan bool, 2)
	workers.Add(len(slots))
	for i := 0; i < len(slots); i++ {
		go func(i int) {
			slots[i] = i + 1
			workers.Done()
		}(i)
	}
	for r := 0; r < 2; r++ {
		go func() {
			workers.Wait()
			sum := 0
			for i := 0; i < len(slots); i++ {
				sum += slots[i]
			}
			fmt.Println(sum)
			done <- true
		}()
	}
	<-done
	<-done
}
