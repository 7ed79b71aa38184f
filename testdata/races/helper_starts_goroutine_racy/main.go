// start starts the janitor and then runs the list's init: main's call of
// start comes before the janitor's go statement, but the call does not
// return before it, so the write inside the call is not ordered with the
// janitor's. A proof per call path must order the call's return, not its
// start.
package main

import "sync"

type list struct{ n int }

func (l *list) init() { l.n = 0 } // want "race"

type cache struct {
	mu   sync.Mutex
	l    *list
	done chan struct{}
}

func (c *cache) start() {
	go c.janitor()
	c.l.init()
}

func (c *cache) janitor() {
	c.mu.Lock()
	c.l.n++ // want "race"
	c.mu.Unlock()
	close(c.done)
}

func main() {
	c := &cache{l: new(list), done: make(chan struct{})}
	c.start()
	<-c.done
}
