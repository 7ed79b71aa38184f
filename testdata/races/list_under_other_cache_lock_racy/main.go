// As list_under_owner_lock, but one goroutine moves the entries of the
// second cache while it holds the first cache's mutex (touch locks c.mu
// and moves d's entry): each goroutine holds one unique mutex, but not the
// same one, so the links of d's list race.
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
}

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

// touch moves d's entry for k to the front, under c's lock.
func (c *cache) touch(d *cache, k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := d.items[k]; ok {
		d.l.moveToFront(e)
	}
}

func main() {
	c, d := newCache(), &cache{items: map[int]*entry{}, l: &list{}}
	d.l.root.next, d.l.root.prev = &d.l.root, &d.l.root
	d.add(1)
	d.add(2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 100 {
			d.get(1)
			d.get(2)
		}
	}()
	for range 100 {
		c.touch(d, 1)
		c.touch(d, 2)
	}
	wg.Wait()
	fmt.Println(len(d.items))
}
