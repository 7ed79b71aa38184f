// Command bygoroutine calls a helper with its receiver's mutex held in one
// goroutine (lockedBump), without it in another (bump started directly),
// and both ways in a third (mixed).
package main

import "sync"

type box struct {
	mu sync.Mutex
	n  int
}

func (b *box) bump() {
	b.n++ // @bump
}

func (b *box) lockedBump() {
	b.mu.Lock()
	b.bump()
	b.mu.Unlock()
}

func mixed(b *box) {
	b.lockedBump()
	b.bump()
}

func main() {
	b := &box{}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); b.lockedBump() }()
	go func() { defer wg.Done(); b.bump() }()
	go func() { defer wg.Done(); mixed(b) }()
	wg.Wait()
}
