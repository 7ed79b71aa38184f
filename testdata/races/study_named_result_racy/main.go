// A named result captured by a goroutine: the goroutine reads total while the
// return statement, which assigns the named result, writes it.
package main

import (
	"fmt"
	"sync"
)

func sum(xs []int, wg *sync.WaitGroup) (total int) {
	for _, x := range xs {
		total += x
	}
	if total == 0 {
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println("partial", total) // want "race"
	}()
	return total * 2 // want "race"
}

func main() {
	var wg sync.WaitGroup
	fmt.Println(sum([]int{1, 2, 3}, &wg))
	wg.Wait()
}
