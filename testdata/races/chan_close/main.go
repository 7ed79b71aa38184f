// close before receive: the goroutine writes p.ready and closes done; main's
// receive observes the close and only then reads p.ready. No race.
package main

import "fmt"

type peer struct{ ready bool }

func main() {
	p := &peer{}
	done := make(chan struct{})
	go func() {
		p.ready = true
		close(done)
	}()
	<-done
	fmt.Println(p.ready)
}
