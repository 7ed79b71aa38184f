// An interface method call inside the goroutine: w.Work() dispatches to
// (*logger).Work, which writes l.lines while main reads it.
package main

import (
	"fmt"
	"sync"
)

type worker interface{ Work() }

type logger struct{ lines int }

func (l *logger) Work() { l.lines++ } // want "race"

func main() {
	l := &logger{}
	var w worker = l
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.Work()
	}()
	fmt.Println(l.lines) // want "race"
	wg.Wait()
}
