// The fixed twin of study_wg_done_before_write_racy: Done is deferred, so it
// runs after the store and Wait orders main's read after it.
package main

import (
	"fmt"
	"sync"
)

type job struct {
	in, out int
}

func main() {
	var wg sync.WaitGroup
	j := &job{in: 7}
	wg.Add(1)
	go func() {
		defer wg.Done()
		v := j.in * 2
		j.out = v
	}()
	wg.Wait()
	fmt.Println(j.out)
}
