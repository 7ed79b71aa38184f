// A deferred call that a recovered panic runs before the join: run
// panics between starting check's goroutine and draining its channel,
// main recovers, and d.close has run while that goroutine reads d.data.
package main

import (
	"fmt"
	"os"
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

func run(d *db, read *sync.WaitGroup, args []string) {
	defer d.close()
	ch := d.check(read)
	fmt.Println(args[5]) // panics: index out of range
	for err := range ch {
		fmt.Println(err)
	}
}

func safely(f func()) {
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	f()
}

func main() {
	d := &db{data: make([]byte, 8)}
	var read sync.WaitGroup
	read.Add(1)
	safely(func() { run(d, &read, os.Args) })
	read.Wait()
}
