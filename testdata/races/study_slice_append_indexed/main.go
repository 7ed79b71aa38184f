// The fixed twin of study_slice_append_goroutines_racy: the result slice is
// allocated up front and each goroutine writes only its own element.
package main

import (
	"fmt"
	"strings"
	"sync"
)

func main() {
	names := []string{"ann", "bob", "cy"}
	upper := make([]string, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			upper[i] = strings.ToUpper(n)
		}()
	}
	wg.Wait()
	fmt.Println(upper)
}
