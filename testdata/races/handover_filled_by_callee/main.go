// Handover by a send of an object filled by helpers: each worker makes a result,
// a helper fills it (through its parameter, in several blocks), the worker writes
// it again after the call, and sends it; main reads what it received. Neither the
// helper nor the worker hands the result on before the send. No race.
package main

import "fmt"

type result struct {
	id    int
	name  string
	ready bool
}

func fill(r *result, id int) {
	r.id = id
	if id%2 == 0 {
		r.name = "even"
	} else {
		r.name = "odd"
	}
}

func work(id int, out chan<- *result) {
	r := &result{}
	fill(r, id)
	r.ready = true
	out <- r
}

func main() {
	out := make(chan *result, 2)
	go work(1, out)
	go work(2, out)
	a, b := <-out, <-out
	fmt.Println(a.id+b.id, a.name, b.name, a.ready && b.ready)
}
