// As list_under_owner_lock, but main moves an entry to the front without
// the cache's mutex (peek): its writes of the links race with those of the
// goroutine's add and get.
package main

import (
	"fmt"
	"sync"
)

type entry struct {
	prev, next *entry
	key        int
}

type list struct{ root entry }

func newList() *list {
	l := &list{}
	l.root.next, l.root.prev = &l.root, &l.root
	return l
}

func (l *list) insert(e, at *entry) {
	e.prev, e.next = at, at.next // want "race"
	at.next.prev = e             // want "race"
	at.next = e                  // want "race"
}

func (l *list) unlink(e *entry) {
	e.prev.next = e.next // want "race"
	e.next.prev = e.prev // want "race"
}

func (l *list) moveToFront(e *entry) {
	if l.root.next == e { // want "race"
		return
	}
	l.unlink(e)
	l.insert(e, &l.root)
}

type cache struct {
	mu    sync.Mutex
	items map[int]*entry
	l     *list
}

func newCache() *cache { return &cache{items: map[int]*entry{}, l: newList()} }

func (c *cache) add(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.l.moveToFront(e)
		return
	}
	e := &entry{key: k}
	c.l.insert(e, &c.l.root)
	c.items[k] = e
}

func (c *cache) get(k int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if ok {
		c.l.moveToFront(e)
	}
	return ok
}

func (c *cache) peek(e *entry) {
	c.l.moveToFront(e)
}

func main() {
	c := newCache()
	c.add(1)
	c.add(2)
	e := c.items[1]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 100 {
			c.get(2)
			c.add(1)
		}
	}()
	for range 100 {
		c.peek(e)
	}
	wg.Wait()
	fmt.Println(len(c.items))
}
