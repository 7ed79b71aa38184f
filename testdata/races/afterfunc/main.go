// time.AfterFunc runs f in its own goroutine; f writes fired and closes done,
// and main reads fired only after receiving from done. No race.
package main

import (
	"fmt"
	"time"
)

func main() {
	fired := 0
	done := make(chan struct{})
	time.AfterFunc(time.Millisecond, func() {
		fired++
		close(done)
	})
	<-done
	fmt.Println(fired)
}
