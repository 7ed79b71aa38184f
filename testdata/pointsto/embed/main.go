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
	Named
	name string
}

// Named has a value-receiver method: calling it on *Derived through an
// interface goes through a wrapper that go/ssa synthesizes, whose load of
// the embedded value has no position.
type Named struct{ label string }

func (n Named) Label() string { return n.label }

type labeler interface{ Label() string }

func main() {
	d := &Derived{} // @newD
	d.Set(new(int))
	var l sync.Locker = &d.Mutex // @locker
	l.Lock()                     // @invoke
	d.val = nil                  // @promoted
	l.Unlock()
	var lb labeler = d
	_ = lb.Label()
}
