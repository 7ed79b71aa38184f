// Mixing message passing and shared memory: a future's result is a shared
// field plus a done channel; the waiter gives up on ctx.Done() and records
// the timeout in the same field the goroutine still writes. (Its read of
// f.err after the done channel closes is ordered by the close.)
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

type future struct {
	done chan struct{}
	err  error
}

func start(wg *sync.WaitGroup, work func() error) *future {
	f := &future{done: make(chan struct{})}
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.err = work() // want "race"
		close(f.done)
	}()
	return f
}

func (f *future) wait(ctx context.Context) error {
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		f.err = ctx.Err() // want "race"
		return ctx.Err()
	}
}

func main() {
	var wg sync.WaitGroup
	f := start(&wg, func() error {
		time.Sleep(50 * time.Millisecond)
		return errors.New("slow")
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	fmt.Println(f.wait(ctx))
	wg.Wait()
}
