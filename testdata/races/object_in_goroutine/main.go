// An object created inside the goroutine and never shared: each goroutine from the
// loop allocates its own acc and writes its fields. One allocation site, but no
// object escapes to another goroutine. No race.
package main

import "fmt"

type acc struct{ n, sum int }

func main() {
	out := make(chan int)
	for i := range 3 {
		go func() {
			a := &acc{}
			for j := range i + 1 {
				a.n++
				a.sum += j
			}
			out <- a.sum
		}()
	}
	fmt.Println(<-out + <-out + <-out)
}
