// Command trylock holds a global mutex only where TryLock succeeded.
package main

import "sync"

var (
	mu      sync.Mutex
	counter int
)

func try() {
	if mu.TryLock() {
		counter++ // @try
		mu.Unlock()
	} else {
		counter-- // @fail
	}
}

func tryNot() {
	if !mu.TryLock() {
		return
	}
	counter += 2 // @trynot
	mu.Unlock()
}

func locked() {
	mu.Lock()
	counter = 0 // @locked
	mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	for _, f := range []func(){try, tryNot, locked} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}
