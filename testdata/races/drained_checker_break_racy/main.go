// As drained_checker_calls, but commit stops draining at the first error:
// the checker goes on reading d.data after its send while the next commit
// writes it.
package main

import (
	"fmt"
	"os"
	"time"
)

type db struct {
	data   []int
	strict bool
}

func (d *db) check() <-chan error {
	ch := make(chan error, 2)
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
	d.data = append(d.data, v) // want "race"
	if d.strict {
		for err := range d.check() {
			fmt.Println(err)
			break
		}
	}
}

func main() {
	d := &db{strict: len(os.Args) < 5}
	for i := range 4 {
		d.commit(i)
	}
	time.Sleep(100 * time.Millisecond)
	fmt.Println(len(d.data))
}
