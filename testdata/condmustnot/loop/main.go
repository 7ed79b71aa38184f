// Command loop locks each item's mutex in a loop and never unlocks it. In
// one loop the item is updated after its own lock is taken; in the other,
// before: there the lock still held is the previous item's, which does not
// protect the new item.
package main

import "sync"

type item struct {
	mu sync.Mutex
	x  int
}

func main() {
	items := []*item{{}, {}, {}}
	for _, q := range items {
		go func(q *item) {
			q.mu.Lock()
			q.x = 5 // @gox
			q.mu.Unlock()
		}(q)
	}
	for _, p := range items {
		p.mu.Lock()
		p.x++ // @after
	}
	others := []*item{{}, {}, {}}
	for _, q := range others {
		go func(q *item) {
			q.mu.Lock()
			q.x = 6 // @gox2
			q.mu.Unlock()
		}(q)
	}
	for _, p := range others {
		p.x++ // @before
		p.mu.Lock()
	}
}
