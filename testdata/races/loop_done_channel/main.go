// Each round makes its own done channel, starts a goroutine that updates
// total and closes it, and waits on it before the next round: the rounds'
// goroutines run one after another, between main's reads.
package main

import "fmt"

func main() {
	total := 0
	for i := 0; i < 3; i++ {
		done := make(chan struct{})
		go func() {
			total += i
			close(done)
		}()
		<-done
		fmt.Println(total)
	}
}
