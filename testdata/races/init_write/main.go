// Globals written in init: the main goroutine runs init before main.main, and
// that happens before every go statement in main. No race.
package main

import (
	"fmt"
	"sync"
)

var table []string

func init() { table = []string{"a", "b", "c"} }

func main() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(table) != 3 || table[0] != "a" {
				panic("bad table")
			}
		}()
	}
	wg.Wait()
	fmt.Println(table)
}
