// main locks l, starts a goroutine that writes a and unlocks l, and locks
// l again: the second Lock returns only after the goroutine's Unlock, so
// main's read comes after the write (the Go memory model's own example).
// No race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var l sync.Mutex
	a := ""
	l.Lock()
	go func() {
		a = "hello, world"
		l.Unlock()
	}()
	l.Lock()
	fmt.Println(a)
}
