// The worker stores its result in a shared field before it fills it, and sends it
// after: a reader that takes it from the field (under the lock) reads it while
// the worker still writes. The send orders nothing for that reader.
package main

import (
	"fmt"
	"sync"
	"time"
)

type result struct{ name string }

type board struct {
	mu   sync.Mutex
	last *result
}

func work(b *board, out chan<- *result) {
	r := &result{}
	b.mu.Lock()
	b.last = r
	b.mu.Unlock()
	r.name = "done" // want "race"
	out <- r
}

func main() {
	b := &board{}
	out := make(chan *result, 1)
	go work(b, out)
	for {
		b.mu.Lock()
		r := b.last
		b.mu.Unlock()
		if r != nil {
			fmt.Println(r.name) // want "race"
			break
		}
		time.Sleep(time.Millisecond)
	}
	<-out
}
