// A sync.Once that is reset by assigning a zero Once runs its f again: the
// second run, in the goroutine, writes config while main reads it after its
// own Do returned.
package main

import (
	"fmt"
	"sync"
)

var (
	once   sync.Once
	config string
)

func load() { config = "fast" } // want "race"

func main() {
	once.Do(load)
	once = sync.Once{}
	done := make(chan bool)
	go func() {
		once.Do(load)
		done <- true
	}()
	fmt.Println(config) // want "race"
	<-done
}
