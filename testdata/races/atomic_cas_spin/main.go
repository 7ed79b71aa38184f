// CompareAndSwap as an acquire: main's CAS from 1 to 2 can succeed only after it
// read the goroutine's Store of 1, which follows the goroutine's write of x, so
// main's write of x after the loop is ordered. No race.
package main

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

var x int

func main() {
	var s int32
	go func() {
		x = 1
		atomic.StoreInt32(&s, 1)
	}()
	for !atomic.CompareAndSwapInt32(&s, 1, 2) {
		runtime.Gosched()
	}
	x = 2
	fmt.Println(x)
}
