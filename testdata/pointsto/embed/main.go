// Embedded fields: promoted methods and fields, and the address of an embedded
// mutex used as a sync.Locker.
package main

import "sync"

type Base struct {
	sync.Mutex
	val *int
}

func (b *Base) Set(p *int) {
	b.Lock() // @lock
	b.val = p
	b.Unlock() // @unlock
}

type Derived struct {
	Base
	name string
}

func main() {
	d := &Derived{} // @newD
	d.Set(new(int))
	var l sync.Locker = &d.Mutex // @locker
	l.Lock()                     // @invoke
	d.val = nil                  // @promoted
	l.Unlock()
}
