// Overwriting a Mutex while another goroutine locks it: Lock reads and
// writes the Mutex atomically, the assignment writes it plainly.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	done := make(chan bool)
	go func() {
		mu = sync.Mutex{} // want "race"
		done <- true
	}()
	mu.Lock() // want "race"
	<-done
	fmt.Println("done")
}
