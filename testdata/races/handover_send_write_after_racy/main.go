// The sender writes its result after the send: the receive orders only what came
// before the send, so main's read races with that write.
package main

import "fmt"

type result struct {
	id int
	ok bool
}

func work(id int, out chan<- *result, done chan<- bool) {
	r := &result{id: id}
	if id > 0 {
		r.id = -id
	}
	out <- r
	r.ok = true // want "race"
	done <- true
}

func main() {
	out := make(chan *result)
	done := make(chan bool)
	go work(1, out, done)
	r := <-out
	fmt.Println(r.id, r.ok) // want "race"
	<-done
}
