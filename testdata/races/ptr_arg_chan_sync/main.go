// A pointer passed to a goroutine as an argument, with a channel ordering the
// worker's write before main's write. No race.
package main

import "fmt"

type point struct{ n int }

func worker(p *point, done chan<- bool) {
	p.n = 1
	done <- true
}

func main() {
	p := &point{}
	done := make(chan bool)
	go worker(p, done)
	<-done
	p.n = 2
	fmt.Println(p.n)
}
