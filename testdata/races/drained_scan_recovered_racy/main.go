// As drained_scan_loop, but the range loop may panic and main recovers:
// sum then returns while its goroutine still reads the slice, and main's
// next append writes it.
package main

import (
	"fmt"
	"time"
)

func sum(data []int) int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		ch <- -1
		for i := 0; i < len(data); i++ {
			ch <- data[i] // want "race"
		}
	}()
	n := 0
	for v := range ch {
		if v < 0 {
			panic("negative")
		}
		n += v
	}
	return n
}

func tryAdd(data []int) {
	defer func() { recover() }()
	fmt.Println(sum(data))
}

func main() {
	data := make([]int, 1, 8)
	tryAdd(data)
	data[0] = 2 // want "race"
	time.Sleep(100 * time.Millisecond)
}
