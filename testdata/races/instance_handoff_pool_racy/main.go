// Workers started by one go statement take buffers from a sync.Pool and put
// them back, then keep writing the buffer they put back: another worker may
// get it from the pool and write it too. On one P, the next worker gets the
// buffer the last one put (the pool's private slot).
package main

import (
	"fmt"
	"runtime"
	"sync"
)

type buf struct{ n int }

var pool = sync.Pool{New: func() any { return &buf{} }}

func work(wg *sync.WaitGroup) {
	defer wg.Done()
	for range 20 {
		b := pool.Get().(*buf)
		pool.Put(b)
		b.n++ // want "race"
		runtime.Gosched()
	}
}

func main() {
	runtime.GOMAXPROCS(1)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go work(&wg)
	}
	wg.Wait()
	fmt.Println("done")
}
