// A map passed by value is still one map: the parameter is a reference to the
// caller's map, so the goroutines' inserts race with each other.
package main

import (
	"fmt"
	"strings"
	"sync"
)

func countWords(line string, counts map[string]int, wg *sync.WaitGroup) {
	defer wg.Done()
	for _, w := range strings.Fields(line) {
		counts[w]++ // want "race"
	}
}

func main() {
	counts := map[string]int{}
	var wg sync.WaitGroup
	for _, line := range []string{"a b", "b c"} {
		wg.Add(1)
		go countWords(line, counts, &wg)
	}
	wg.Wait()
	fmt.Println(len(counts))
}
