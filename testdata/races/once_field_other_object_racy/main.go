// The goroutine runs a's load as the f of b's Once: that run is not the one
// run of a's Once, so its write races with main's read after a's Do (whose f
// ran before the goroutine started).
package main

import (
	"fmt"
	"sync"
)

type table struct {
	once sync.Once
	rows []int
}

func (t *table) load() { t.rows = []int{1, 2} } // want "race" (not with itself)

func (t *table) get() []int {
	t.once.Do(t.load)
	return t.rows // want "race" (not with itself)
}

func main() {
	done := make(chan bool)
	a, b := &table{}, &table{}
	fmt.Println(len(a.get()))
	go func() {
		b.once.Do(a.load)
		done <- true
	}()
	fmt.Println(len(a.get()))
	<-done
}
