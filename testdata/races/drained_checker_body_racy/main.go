// As drained_checker_calls, but the loop that drains the checker's
// channel writes d.data while the checker still reads it: the body of the
// loop runs between the checker's start and its close.
package main

import (
	"fmt"
	"os"
)

type db struct {
	data   []int
	strict bool
}

func (d *db) check() <-chan error {
	ch := make(chan error)
	go func() {
		defer close(ch)
		ch <- fmt.Errorf("first")
		if len(d.data) > 100 { // want "race"
			ch <- fmt.Errorf("too many entries")
		}
	}()
	return ch
}

func (d *db) commit(v int) {
	d.data = append(d.data, v)
	if d.strict {
		for range d.check() {
			d.data = d.data[:1] // want "race"
		}
	}
}

func main() {
	d := &db{strict: len(os.Args) < 5}
	for i := range 4 {
		d.commit(i)
	}
	fmt.Println(d.data)
}
