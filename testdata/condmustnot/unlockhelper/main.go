// Command unlockhelper releases a global mutex in a helper function and
// through a sync.Locker: after either call the mutex is no longer held.
// A call that does not unlock leaves it held, and so does sync.Cond.Wait,
// which takes the lock again before it returns.
package main

import "sync"

var (
	mu      sync.Mutex
	counter int
	cond    = sync.NewCond(&mu)
	ready   bool
)

func unlock() { mu.Unlock() }

func noop() {}

func viaHelper() {
	mu.Lock()
	unlock()
	counter++ // @afterhelper
}

func viaNoop() {
	mu.Lock()
	noop()
	counter++ // @afternoop
	mu.Unlock()
}

func viaLocker(l sync.Locker) {
	mu.Lock()
	l.Unlock()
	counter++ // @afterlocker
}

func waiter() {
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	counter++ // @aftercondwait
	mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); waiter() }()
	go func() { defer wg.Done(); viaHelper() }()
	go func() { defer wg.Done(); viaNoop() }()
	go func() { defer wg.Done(); viaLocker(&mu) }()
	mu.Lock()
	ready = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
}
