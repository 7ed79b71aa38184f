// WaitGroup misuse: the worker calls Add itself, so Wait can find the counter
// at zero and return before the worker ran; main's read of the result is then
// unordered with the worker's write.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var wg sync.WaitGroup
	var exited sync.WaitGroup
	var result int
	exited.Add(1)
	go func() {
		defer exited.Done()
		time.Sleep(10 * time.Millisecond)
		wg.Add(1)
		defer wg.Done()
		result = 42 // want "race"
	}()
	wg.Wait()
	fmt.Println(result) // want "race"
	exited.Wait()
}
