// A lock in a struct protecting its own fields (fine-grained): two accounts, each
// deposited into by two goroutines, each deposit under that account's own mutex.
package main

import (
	"fmt"
	"sync"
)

type account struct {
	mu      sync.Mutex
	balance int
}

func (a *account) deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

func main() {
	a, b := &account{}, &account{}
	var wg sync.WaitGroup
	for _, acc := range []*account{a, a, b, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc.deposit(1)
		}()
	}
	wg.Wait()
	fmt.Println(a.balance, b.balance)
}
