// Ownership handoff broken: main keeps writing the task after sending it, while
// the worker reads it.
package main

import "fmt"

type task struct{ in, out int }

func main() {
	todo := make(chan *task, 1)
	finished := make(chan int)
	go func() {
		t := <-todo
		finished <- t.in * 2 // want "race"
	}()
	t := &task{in: 21}
	todo <- t
	t.in = 5 // want "race"
	fmt.Println(<-finished)
}
