// Command deferunlock releases a global mutex with defer: the lock is held
// until the function returns, and released when it does.
package main

import "sync"

var (
	mu      sync.Mutex
	outer   sync.Mutex
	counter int
)

func inc() {
	mu.Lock()
	defer mu.Unlock()
	counter++ // @held
}

func incClosure() {
	mu.Lock()
	defer func() { mu.Unlock() }()
	counter++ // @heldclosure
}

// unlockLater releases the caller's lock when it returns.
func unlockLater() {
	defer mu.Unlock()
}

func afterReturn() {
	mu.Lock()
	unlockLater()
	counter = 2 // @afterreturn
}

// named's result is read after the deferred calls ran, the Unlock of mu
// included; its caller's lock outer is still held.
func named() (n int) {
	mu.Lock()
	defer mu.Unlock()
	defer func() { n++ }()
	n = counter // @beforereturn
	return      // @return
}

func main() {
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); inc() }()
	go func() { defer wg.Done(); incClosure() }()
	go func() { defer wg.Done(); afterReturn() }()
	go func() {
		defer wg.Done()
		outer.Lock()
		named()
		outer.Unlock()
	}()
	wg.Wait()
}
