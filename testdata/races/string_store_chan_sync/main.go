// String variable store before a close; main reads status after the receive that
// observes the close. No race.
package main

import "fmt"

var status string

func main() {
	done := make(chan struct{})
	go func() {
		status = "done"
		close(done)
	}()
	<-done
	fmt.Println(len(status), status)
}
