// The table's clear runs before the go statement that starts the worker,
// which is ordered with the worker's write, and again from main's reset
// after the go statement without the lock the worker holds: that call path
// is neither ordered nor locked.
package main

import "sync"

type table struct{ size int }

func (t *table) clear() {
	t.size = 0 // want "race"
}

type server struct {
	mu       sync.Mutex
	t        table
	finished chan bool
}

func (s *server) worker() {
	s.mu.Lock()
	s.t.size += 2 // want "race"
	s.mu.Unlock()
	s.finished <- true
}

func (s *server) reset() { s.t.clear() }

func main() {
	s := &server{finished: make(chan bool)}
	s.t.clear()
	go s.worker()
	s.reset()
	<-s.finished
}
