// list_under_owner_lock in generic code: the caches, lists and entries are
// instances of generic types, the helpers instances of generic methods,
// and there are two caches, each of its own instance, each used by two
// goroutines. No race.
package main

import (
	"fmt"
	"sync"
)

type entry[K comparable] struct {
	prev, next *entry[K]
	key        K
}

type list[K comparable] struct {
	root entry[K]
	n    int
}

func newList[K comparable]() *list[K] {
	l := &list[K]{}
	l.root.next, l.root.prev = &l.root, &l.root
	return l
}

func (l *list[K]) insert(e, at *entry[K]) {
	e.prev, e.next = at, at.next
	at.next.prev = e
	at.next = e
	l.n++
}

func (l *list[K]) unlink(e *entry[K]) {
	e.prev.next = e.next
	e.next.prev = e.prev
	l.n--
}

func (l *list[K]) moveToFront(e *entry[K]) {
	if l.root.next == e {
		return
	}
	l.unlink(e)
	l.insert(e, &l.root)
}

type cache[K comparable] struct {
	mu    sync.Mutex
	items map[K]*entry[K]
	l     *list[K]
}

func newCache[K comparable]() *cache[K] {
	return &cache[K]{items: map[K]*entry[K]{}, l: newList[K]()}
}

func (c *cache[K]) add(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.l.moveToFront(e)
		return
	}
	e := &entry[K]{key: k}
	c.l.insert(e, &c.l.root)
	c.items[k] = e
}

func (c *cache[K]) get(k K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if ok {
		c.l.moveToFront(e)
	}
	return ok
}

func main() {
	c1, c2 := newCache[int](), newCache[string]()
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); c1.add(1); c1.add(2) }()
	go func() { defer wg.Done(); c1.get(1); c1.add(1) }()
	go func() { defer wg.Done(); c2.add("a"); c2.add("b") }()
	go func() { defer wg.Done(); c2.get("a"); c2.add("a") }()
	wg.Wait()
	fmt.Println(c1.l.n, c2.l.n)
}
