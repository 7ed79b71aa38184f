// An interface method call inside the goroutine dispatches only to (*logger).Work
// (the dynamic type); main meanwhile uses a *meter. Different objects and fields,
// so no race, provided dispatch follows the receiver's dynamic type.
package main

import (
	"fmt"
	"sync"
)

type worker interface{ Work() }

type logger struct{ n int }

func (l *logger) Work() { l.n++ }

type meter struct{ n int }

func (m *meter) Work() { m.n++ }

func main() {
	var w worker = &logger{}
	m := &meter{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.Work()
	}()
	m.Work()
	wg.Wait()
	fmt.Println(m.n)
}
