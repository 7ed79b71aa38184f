// A checker goroutine that a helper starts and whose own channel it
// returns; every caller drains the channel until it is closed. commit
// runs the checker once per call, in a loop: each checker reads d.data
// after the write that precedes its start and ends (closing its channel)
// before the range loop that drains it does, so before the next commit's
// write and main's last one. No race.
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
		if len(d.data) > 2 {
			ch <- fmt.Errorf("%d entries", len(d.data))
		}
	}()
	return ch
}

func (d *db) commit(v int) {
	d.data = append(d.data, v)
	if d.strict {
		var errs []string
		for err := range d.check() {
			errs = append(errs, err.Error())
		}
		fmt.Println(errs)
	}
}

func main() {
	d := &db{strict: len(os.Args) < 5}
	for i := range 4 {
		d.commit(i)
	}
	d.data[0] = -1
	fmt.Println(d.data)
}
