// Handover by a send: each worker makes a result, fills it in several blocks and
// then sends it; main reads only the results it received. The send happens before
// the receive completes, and no other goroutine can reach a result before its
// send. No race.
package main

import "fmt"

type result struct {
	id   int
	name string
	ok   bool
}

func work(id int, out chan<- *result) {
	r := &result{id: id}
	if id%2 == 0 {
		r.name = "even"
	} else {
		r.name = "odd"
	}
	r.ok = true
	out <- r
}

func main() {
	out := make(chan *result)
	for i := range 4 {
		go work(i, out)
	}
	for range 4 {
		r := <-out
		fmt.Println(r.id, r.name, r.ok)
	}
}
