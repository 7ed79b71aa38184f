// time.AfterFunc runs f in its own goroutine: f's write of fired races with main's
// write, which happens before main waits for done.
package main

import (
	"fmt"
	"time"
)

func main() {
	fired := 0
	done := make(chan struct{})
	time.AfterFunc(time.Millisecond, func() {
		fired++ // want "race"
		close(done)
	})
	fired = 10 // want "race"
	<-done
	fmt.Println(fired)
}
