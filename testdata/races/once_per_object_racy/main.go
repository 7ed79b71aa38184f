// Each loader has a sync.Once of its own, so each one's f runs: the two
// goroutines' loaders both count the shared total, and the updates race. One
// abstract Once stands here for two concrete ones.
package main

import (
	"fmt"
	"sync"
)

type loader struct{ once sync.Once }

var total int

func (l *loader) load() {
	l.once.Do(func() {
		total++ // want "race"
	})
}

func main() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := &loader{}
			l.load()
		}()
	}
	wg.Wait()
	fmt.Println(total)
}
