// time.AfterFunc and runtime.SetFinalizer: the runtime calls the function later, in another goroutine.
package main

import (
	"runtime"
	"time"
)

type R struct{ n int }

func main() {
	x := new(int)
	t := time.AfterFunc(time.Millisecond, func() { // @afterfunc
		*x = 1 // @cbwrite
	})
	defer t.Stop()
	r := &R{}                            // @newR
	runtime.SetFinalizer(r, func(r *R) { // @finalizer
		r.n = 1 // @finwrite
	})
	println(*x)
}
