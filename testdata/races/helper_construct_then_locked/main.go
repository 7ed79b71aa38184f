// A list's init runs on two call paths of main: through newList in
// newCache, before the go statement that starts the janitor, and through
// purge, under the cache's mutex, which the janitor holds when it writes
// the list. Neither the order nor the lock covers both paths of init at
// once; each path is covered by one of them. No race.
package main

import "sync"

type list struct{ n int }

func (l *list) init() *list {
	l.n = 0
	return l
}

func newList() *list { return new(list).init() }

type cache struct {
	mu   sync.Mutex
	l    *list
	done chan struct{}
}

func newCache() *cache {
	c := &cache{l: newList(), done: make(chan struct{})}
	go c.janitor()
	return c
}

func (c *cache) janitor() {
	c.mu.Lock()
	c.l.n++
	c.mu.Unlock()
	close(c.done)
}

func (c *cache) purge() {
	c.mu.Lock()
	c.l.init()
	c.mu.Unlock()
}

func main() {
	c := newCache()
	c.purge()
	<-c.done
}
