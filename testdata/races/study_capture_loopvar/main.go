// The fixed twin of study_capture_outer_var_racy: the goroutines capture the
// range variable itself, which Go 1.22 makes a fresh variable per iteration, so
// no write follows the spawn of a goroutine that reads it.
package main

import (
	"fmt"
	"sync"
)

func main() {
	jobs := []string{"a", "b", "c"}
	out := make(chan string, len(jobs))
	var wg sync.WaitGroup
	for _, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- job + "!"
		}()
	}
	wg.Wait()
	close(out)
	for s := range out {
		fmt.Println(s)
	}
}
