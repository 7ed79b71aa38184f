// The second goroutine defers wg.Done and then receives from done, which
// the first closes after writing x. But stop ends the goroutine with
// runtime.Goexit before the receive, which runs the deferred Done: Wait
// may return before the first goroutine's write.
package main

import (
	"runtime"
	"sync"
)

func stop() { runtime.Goexit() }

func main() {
	x := 0
	_ = x
	done := make(chan struct{})
	var wg sync.WaitGroup
	go func() {
		x = 1 // want "race"
		close(done)
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		stop()
		<-done
	}()
	wg.Wait()
	x = 2 // want "race"
	<-done
}
