// A goroutine started in a helper that main calls in a loop, drained by
// the helper's own range loop until it closes its channel: each run of
// the goroutine ends before sum returns, so before main's next append.
// No race.
package main

import "fmt"

func sum(data []int) int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for _, v := range data {
			ch <- v
		}
	}()
	n := 0
	for v := range ch {
		n += v
	}
	return n
}

func main() {
	data := make([]int, 0, 8)
	for i := range 4 {
		data = append(data, i)
		fmt.Println(sum(data))
	}
}
