// A deferred call that runtime.Goexit runs before the join: run's
// goroutine exits between starting check's goroutine and draining its
// channel, so d.close runs while that goroutine reads d.data.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

type db struct{ data []byte }

func (d *db) check(read *sync.WaitGroup) <-chan error {
	ch := make(chan error, 1) // the send never blocks, though nobody may drain it
	go func() {
		defer close(ch)
		defer read.Done()
		if len(d.data) == 0 { // want "race"
			ch <- fmt.Errorf("empty")
		}
	}()
	return ch
}

func (d *db) close() { d.data = nil } // want "race"

func run(d *db, read *sync.WaitGroup, quit bool) {
	defer d.close()
	ch := d.check(read)
	if quit {
		runtime.Goexit()
	}
	for err := range ch {
		fmt.Println(err)
	}
}

func main() {
	d := &db{data: make([]byte, 8)}
	var read sync.WaitGroup
	read.Add(1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(d, &read, true)
	}()
	<-done
	read.Wait()
}
