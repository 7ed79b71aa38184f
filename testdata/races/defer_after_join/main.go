// A deferred call after a join: check's goroutine ends before the range
// loop does, and d.close runs at main's return, after the loop. A panic
// between the two would run d.close while the goroutine still reads, but
// nothing recovers it, so it ends the program (the README's assumption).
package main

import "fmt"

type db struct{ data []byte }

func (d *db) check() <-chan error {
	ch := make(chan error)
	go func() {
		defer close(ch)
		if len(d.data) == 0 {
			ch <- fmt.Errorf("empty")
		}
	}()
	return ch
}

func (d *db) close() { d.data = nil }

func main() {
	d := &db{data: make([]byte, 8)}
	defer d.close()
	for err := range d.check() {
		fmt.Println(err)
	}
}
