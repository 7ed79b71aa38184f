// The fixed twin of study_wg_add_in_goroutine_racy: Add is called before the
// go statement, so Wait returns only after the worker's Done.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var wg sync.WaitGroup
	var result int
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(10 * time.Millisecond)
		result = 42
	}()
	wg.Wait()
	fmt.Println(result)
}
