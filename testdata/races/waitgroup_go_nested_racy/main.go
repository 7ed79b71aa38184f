// A goroutine started by wg1.Go in another goroutine writes x; main writes
// x and then calls wg2.Go: nothing orders the two writes. Shrunk from
// internal/difftest's seed 865.
package main

import "sync"

var x int

func main() {
	var wg1, wg2 sync.WaitGroup
	done := make(chan bool)
	go func() {
		wg1.Go(func() {
			go func() {
				x = 1 // want "race" (not with itself)
				done <- true
			}()
		})
		wg1.Wait()
	}()
	x = 2 // want "race"
	wg2.Go(func() {})
	wg2.Wait()
	<-done
}
