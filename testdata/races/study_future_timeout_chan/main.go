// The fixed twin of study_future_timeout_racy: the goroutine hands its result
// over a buffered channel, and the waiter that gives up returns its own error
// without touching anything the goroutine writes.
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

type future struct {
	result chan error
}

func start(wg *sync.WaitGroup, work func() error) *future {
	f := &future{result: make(chan error, 1)}
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.result <- work()
	}()
	return f
}

func (f *future) wait(ctx context.Context) error {
	select {
	case err := <-f.result:
		return err
	case <-ctx.Done():
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
