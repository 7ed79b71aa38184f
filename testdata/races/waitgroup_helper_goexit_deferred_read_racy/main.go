// The helper ends its goroutine with runtime.Goexit (as t.FailNow does)
// between starting a goroutine and waiting for it. The worker's deferred
// function still runs, and reads what that goroutine may still be writing.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

type stats struct{ n int }

func bump(s *stats, stop bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.n++ // want "race"
	}()
	if stop {
		runtime.Goexit()
	}
	wg.Wait()
}

func worker(s *stats, done chan bool) {
	defer close(done)
	defer func() {
		time.Sleep(10 * time.Millisecond)
		fmt.Println(s.n) // want "race"
	}()
	bump(s, len(os.Args) < 100)
}

func main() {
	s := &stats{}
	done := make(chan bool)
	go worker(s, done)
	<-done
}
