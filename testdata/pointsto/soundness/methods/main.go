// Method values (bound methods of a pointer, of a value and of an interface),
// method expressions (of a value type, a pointer type and an interface type),
// goroutines started with a closure, a function, a method and a method value,
// and defers of closures and method values, with a recover.
package main

import (
	"sync"

	"github.com/chordgo/chordgo/testdata/pointsto/soundness/edges"
)

type Counter struct{ n int }
type Getter interface{ Get() int }

func (c *Counter) Inc()    { trace(); c.n++ }
func (c Counter) Get() int { trace(); return c.n }

func run(f func()) { trace(); f() }

func worker(wg *sync.WaitGroup, c *Counter) {
	trace()
	defer wg.Done()
	c.Inc()
}

func deferred(c *Counter) (r int) {
	trace()
	defer func() { trace(); r += c.n }()
	defer c.Inc()
	get := c.Get
	defer get()
	return 1
}

func safe(c *Counter) (msg string) {
	trace()
	defer func() { trace(); msg, _ = recover().(string) }()
	run(func() { trace(); panic("boom") })
	return ""
}

func main() {
	trace()
	defer dump()
	c := &Counter{}
	run(c.Inc)
	get := c.Get
	n := get()
	var g Getter = Counter{5}
	gv := g.Get
	n += gv()
	incE, getE, ifE := (*Counter).Inc, Counter.Get, Getter.Get
	incE(c)
	n += getE(*c) + ifE(g) + ifE(c)
	var wg sync.WaitGroup
	wg.Add(4)
	c2, c3, c4, c5 := &Counter{}, &Counter{}, &Counter{}, &Counter{}
	go func() { trace(); defer wg.Done(); c2.Inc() }()
	go worker(&wg, c3)
	inc4 := c4.Inc
	go func() { trace(); defer wg.Done(); run(inc4) }()
	go func(f func()) { trace(); defer wg.Done(); f() }(c5.Inc)
	wg.Wait()
	n += deferred(c)
	_, _ = n, safe(c)
	dump()
}

// The call-edge recorder is shared (package edges); trace and dump keep
// the names pointsto/soundness_test.go looks for.
var trace, dump = edges.Trace, edges.Dump
