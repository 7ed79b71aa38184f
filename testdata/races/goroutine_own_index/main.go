// Each goroutine writes the element at its own index, the loop counter
// passed at the go statement: two goroutines never write the same element.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var squares [4]int
	cubes := make([]int, 4)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			squares[i] = i * i
			cubes[i] = i * i * i
		}(i)
	}
	wg.Wait()
	fmt.Println(squares, cubes)
}
