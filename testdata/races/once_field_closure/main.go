// A lazily computed field per object: the f literal given to the object's own
// Once writes the result, and every reader reads it after its Do returned. Two
// goroutines per object, two objects. No race.
package main

import (
	"fmt"
	"sync"
)

type lazy struct {
	once sync.Once
	val  int
	n    int
}

func (l *lazy) get() int {
	l.once.Do(func() {
		l.val = l.n * 10
	})
	return l.val
}

func reader(l *lazy, results chan<- int) { results <- l.get() }

func main() {
	objs := []*lazy{{n: 1}, {n: 2}}
	results := make(chan int)
	for _, l := range objs {
		go reader(l, results)
		go reader(l, results)
	}
	sum := 0
	for range 4 {
		sum += <-results
	}
	fmt.Println(sum)
}
