// The fixed twin of study_named_result_racy: the goroutine captures a local
// copy of the named result, so the return statement's write shares nothing
// with it.
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
	partial := total
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println("partial", partial)
	}()
	return total * 2
}

func main() {
	var wg sync.WaitGroup
	fmt.Println(sum([]int{1, 2, 3}, &wg))
	wg.Wait()
}
