// The fixed twin of study_map_by_value_racy: each goroutine fills a map of its
// own and sends it back; main merges them.
package main

import (
	"fmt"
	"strings"
)

func countWords(line string, out chan<- map[string]int) {
	counts := map[string]int{}
	for _, w := range strings.Fields(line) {
		counts[w]++
	}
	out <- counts
}

func main() {
	lines := []string{"a b", "b c"}
	out := make(chan map[string]int)
	for _, line := range lines {
		go countWords(line, out)
	}
	total := map[string]int{}
	for range lines {
		for w, n := range <-out {
			total[w] += n
		}
	}
	fmt.Println(len(total))
}
