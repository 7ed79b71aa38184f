// sync.WaitGroup.Go (Go 1.25): wg.Go starts f in a goroutine, f returning is its
// Done, and main reads after Wait. No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var a, b int
	var wg sync.WaitGroup
	wg.Go(func() { a = 1 })
	wg.Go(func() { b = 2 })
	wg.Wait()
	fmt.Println(a + b)
}
