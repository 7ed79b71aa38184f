// The fixed twin of study_accumulator_loop_racy: each goroutine sends its part
// over a channel and main alone adds into the accumulator.
package main

import "fmt"

type totals struct {
	bytes int
}

func main() {
	files := []int{120, 45, 300}
	t := &totals{}
	parts := make(chan int)
	for _, size := range files {
		go func() {
			parts <- size
		}()
	}
	for range files {
		t.bytes += <-parts
	}
	fmt.Println(t.bytes)
}
