// sync and sync/atomic operations.
package main

import (
	"sync"
	"sync/atomic"
)

type T struct{ x int }

func main() {
	var n int32
	var p atomic.Pointer[T]
	var v atomic.Value
	var wg sync.WaitGroup
	var once sync.Once
	var rw sync.RWMutex
	var cnt atomic.Int64
	wg.Add(1) // @add
	go func() {
		defer wg.Done()        // @done
		atomic.AddInt32(&n, 1) // @atomicadd
		p.Store(&T{})          // @pstore
		v.Store(&T{})          // @vstore
		rw.RLock()             // @rlock
		cnt.Add(1)             // @cntadd
		rw.RUnlock()           // @runlock
	}()
	wg.Wait()          // @wait
	once.Do(func() {}) // @once
	a := p.Load()      // @pload
	b := v.Load()      // @vload
	println(atomic.LoadInt32(&n), a, b, cnt.Load())
	pool.Put(&T{})  // @poolput
	c := pool.Get() // @poolget
	println(c)
}

var pool = sync.Pool{New: func() any { return &T{} }} // @poolnew
