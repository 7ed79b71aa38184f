// Each goroutine writes a buffer and a variable and closes a channel, all
// made in its own iteration before its go statement: no two goroutines
// share them.
package main

import "sync"

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		buf := make([]byte, i+1)
		done := make(chan struct{})
		var n int
		_ = n
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf[0] = byte(i)
			n = len(buf)
			close(done)
		}()
	}
	wg.Wait()
}
