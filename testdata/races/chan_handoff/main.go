// Ownership handoff: main fills a task and sends the pointer, the worker updates it
// and sends it back; each side touches the task only while it owns it. No race.
package main

import "fmt"

type task struct{ in, out int }

func main() {
	todo := make(chan *task)
	finished := make(chan *task)
	go func() {
		t := <-todo
		t.out = t.in * 2
		finished <- t
	}()
	t := &task{in: 21}
	todo <- t
	t = <-finished
	fmt.Println(t.out)
}
