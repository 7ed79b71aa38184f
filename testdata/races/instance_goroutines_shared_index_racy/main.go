// Two workers each build a journal of their own, but both journals get the
// log main made and handed to each worker at its start: the workers append
// to one log. Objects a goroutine gets from its start are not its own.
package main

import (
	"fmt"
	"sync"
)

type log struct{ lines []string }

type journal struct{ to *log }

func (j *journal) write(s string) {
	j.to.lines = append(j.to.lines, s) // want "race"
}

func work(l *log, s string, wg *sync.WaitGroup) {
	defer wg.Done()
	j := &journal{to: l}
	j.write(s)
}

func main() {
	l := &log{}
	var wg sync.WaitGroup
	wg.Add(2)
	go work(l, "a", &wg)
	go work(l, "b", &wg)
	wg.Wait()
	fmt.Println(len(l.lines))
}
