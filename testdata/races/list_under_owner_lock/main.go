// A cache keeps its entries in a list whose methods write the entries'
// links; every call into the list is made with the cache's mutex held, by
// two methods that each lock it through their own c.mu (add and get), and
// the list's helpers hold it only as their callers' lock: each caller's
// c.mu is another SSA value, but in each goroutine c can only be the one
// cache, so its mutex is held at the helpers' entry. No race.
package main

import (
	"fmt"
	"sync"
)

type entry struct {
	prev, next *entry
	key        int
}

type list struct {
	root entry
	n    int
}

func newList() *list {
	l := &list{}
	l.root.next, l.root.prev = &l.root, &l.root
	return l
}

func (l *list) insert(e, at *entry) {
	e.prev, e.next = at, at.next
	at.next.prev = e
	at.next = e
	l.n++
}

func (l *list) unlink(e *entry) {
	e.prev.next = e.next
	e.next.prev = e.prev
	l.n--
}

func (l *list) moveToFront(e *entry) {
	if l.root.next == e {
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

func main() {
	c := newCache()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.add(1); c.add(2) }()
	go func() { defer wg.Done(); c.get(1); c.add(1) }()
	wg.Wait()
	fmt.Println(c.l.n)
}
