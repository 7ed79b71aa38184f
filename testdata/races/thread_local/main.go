// Thread-local data: each goroutine fills and sums its own local slice; nothing is
// shared but the result channel. No race.
package main

import "fmt"

func work(n int, out chan<- int) {
	buf := make([]int, n)
	for i := range buf {
		buf[i] = i
	}
	sum := 0
	for _, v := range buf {
		sum += v
	}
	out <- sum
}

func main() {
	out := make(chan int)
	for n := range 3 {
		go work(n+2, out)
	}
	fmt.Println(<-out + <-out + <-out)
}
