// Command entrylock calls helpers with the caller's own mutex held: the
// callers lock the mutex through their own values, so the lock reaches
// the helper as "&c.mu of the helper's receiver".
package main

import "sync"

type cache struct {
	mu    sync.Mutex
	other sync.Mutex
	n     int
	m     int
	items map[string]int
}

func newCache() *cache { return &cache{items: make(map[string]int)} }

// set is called by add and replace, each holding c.mu.
func (c *cache) set(v int) {
	c.n = v // @set
	c.setItem(v)
}

// setItem is reached from set: the lock goes one call further.
func (c *cache) setItem(v int) {
	items := c.items
	items["k"] = v // @item
}

func (c *cache) add(v int) {
	c.mu.Lock()
	c.set(v)
	c.mu.Unlock()
}

func (c *cache) replace(v int) {
	c.mu.Lock()
	c.set(v + 1)
	c.mu.Unlock()
}

// bump is called holding c.mu by one caller and c.other by the other.
func (c *cache) bump() {
	c.m++ // @bump
}

func (c *cache) bumpA() {
	c.mu.Lock()
	c.bump()
	c.mu.Unlock()
}

func (c *cache) bumpB() {
	c.other.Lock()
	c.bump()
	c.other.Unlock()
}

// store is called by give holding the mutex of another cache than the
// one it updates.
func (c *cache) store(v int) {
	c.n = v // @store
}

func (c *cache) give(d *cache) {
	c.mu.Lock()
	d.store(1)
	c.mu.Unlock()
}

func (c *cache) put(v int) {
	c.mu.Lock()
	c.store(v)
	c.mu.Unlock()
}

// A list whose walk holds the first node's mutex but recurses into the
// next node: at the next node, the first node's mutex is held, its own is
// not.
type node struct {
	mu   sync.Mutex
	n    int
	next *node
}

func (n *node) walk() {
	n.n++ // @walk
	if n.next != nil {
		n.next.walk()
	}
}

func (n *node) start() {
	n.mu.Lock()
	n.walk()
	n.mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	for range 2 {
		c, d := newCache(), newCache()
		tail := &node{}
		head := &node{next: tail}
		for _, f := range []func(){
			func() { c.add(1) }, func() { c.replace(2) }, c.bumpA, c.bumpB,
			func() { c.give(d) }, func() { d.put(3) }, head.start, tail.start,
		} {
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		}
	}
	wg.Wait()
}
