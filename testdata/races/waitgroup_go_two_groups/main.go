// Two WaitGroups, each given one function by Go, both waited for before
// main reads what the functions wrote. No race.
package main

import "sync"

var x, y int

func main() {
	var wg4, wg5 sync.WaitGroup
	wg4.Go(func() {
		x = 1
	})
	wg5.Go(func() {
		y = 1
	})
	wg4.Wait()
	wg5.Wait()
	_ = x + y
}
