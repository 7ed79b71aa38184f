// A struct's lock used for another object's field: transfer holds from.mu while
// writing to.balance, and deposit holds to.mu; different locks, so they race.
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
	a.balance += n // want "race"
	a.mu.Unlock()
}

func transfer(from, to *account, n int) {
	from.mu.Lock()
	from.balance -= n
	to.balance += n // want "race"
	from.mu.Unlock()
}

func main() {
	a, b := &account{balance: 10}, &account{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		transfer(a, b, 5)
	}()
	b.deposit(1)
	wg.Wait()
	fmt.Println(a.balance, b.balance)
}
