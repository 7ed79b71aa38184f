// main writes v after making the callback f but before time.AfterFunc
// registers it: the runtime cannot start f's goroutine before the call, so
// f's write comes after main's, and main reads v only after f closes done.
// No race.
package main

import (
	"fmt"
	"time"
)

func main() {
	v := 0
	done := make(chan struct{})
	f := func() {
		v = 2
		close(done)
	}
	v = 1
	time.AfterFunc(time.Millisecond, f)
	<-done
	fmt.Println(v)
}
