// Spinning on an atomic Load: main leaves the loop only after its Load read the
// value written by the goroutine's atomic Add, which follows the goroutine's write
// of x, so main's write of x after the loop is ordered. No race.
package main

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

var x int

func main() {
	var s int64
	go func() {
		x = 1
		atomic.AddInt64(&s, 1)
	}()
	for atomic.LoadInt64(&s) != 1 {
		runtime.Gosched()
	}
	x = 2
	fmt.Println(x)
}
