// A worker waits in a select for ready or stop, then reads config. Nothing
// sends on stop or closes it, and no code we do not see gets it, so only
// the close of ready, after main's write, can complete the select. No race.
package main

import "fmt"

func main() {
	config := 0
	ready := make(chan struct{})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		select {
		case <-ready:
		case <-stop:
		}
		fmt.Println(config)
		close(done)
	}()
	config = 42
	close(ready)
	<-done
}
