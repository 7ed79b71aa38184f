// Command medium guards objects with the lock of the holder whose field
// leads to them (medium-grained locking): a counter reached through t.c
// while t.mu is held. Each owner makes its own counter, map and buffers
// where it is made, and nothing else stores into those fields, so two
// owners never lead to one object. In the other holder types a counter
// may sit in two holders' fields: made once and given to two holders,
// copied from one holder to another, stored in a loop, passed in by the
// caller; or the access does not hold its holder's lock.
package main

import "sync"

type counter struct{ n int }

type owner struct {
	mu, mu2 sync.Mutex
	c       *counter
	m       map[int]int
	buf     []int
	dyn     []int
}

func newOwner(n int) *owner {
	return &owner{c: &counter{}, m: make(map[int]int), buf: make([]int, 4), dyn: make([]int, n)}
}

func (t *owner) inc() {
	c := t.c
	t.mu.Lock()
	c.n++ // @owned
	t.mu.Unlock()
}

func (t *owner) put(k int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, buf, dyn := t.m, t.buf, t.dyn
	m[k]++       // @ownedmap
	buf[k%4] = k // @ownedslice
	dyn[0] = k   // @ownedmakeslice
}

// incOther holds another mutex of t.
func (t *owner) incOther() {
	c := t.c
	t.mu2.Lock()
	c.n++ // @mu2
	t.mu2.Unlock()
}

func (t *owner) incUnlocked() {
	c := t.c
	c.n++ // @unlocked
}

// incVia holds t's mutex and updates u's counter.
func (t *owner) incVia(u *owner) {
	c := u.c
	t.mu.Lock()
	c.n++ // @otherbase
	t.mu.Unlock()
}

// lockAll updates each counter before it takes its holder's mutex, and
// never unlocks: the mutex held at the update is the previous holder's.
func lockAll(ts []*owner) {
	for _, t := range ts {
		c := t.c
		c.n++ // @prevlock
		t.mu.Lock()
	}
}

// shared: one counter made for two holders.
type shared struct {
	mu sync.Mutex
	sc *counter
}

func (s *shared) inc() {
	c := s.sc
	s.mu.Lock()
	c.n++ // @shared
	s.mu.Unlock()
}

// reassigned: each holder makes its counter, then one takes the other's.
type reassigned struct {
	mu sync.Mutex
	rc *counter
}

func newReassigned() *reassigned { return &reassigned{rc: &counter{}} }

func (r *reassigned) inc() {
	c := r.rc
	r.mu.Lock()
	c.n++ // @reassigned
	r.mu.Unlock()
}

// looped: holders made in a loop around one counter.
type looped struct {
	mu sync.Mutex
	lc *counter
}

func (l *looped) inc() {
	c := l.lc
	l.mu.Lock()
	c.n++ // @looped
	l.mu.Unlock()
}

// copied: a holder copied into another, counter pointer included.
type copied struct {
	mu sync.Mutex
	cc *counter
}

func (p *copied) inc() {
	c := p.cc
	p.mu.Lock()
	c.n++ // @copied
	p.mu.Unlock()
}

// param: the caller gives the counter.
type param struct {
	mu sync.Mutex
	pc *counter
}

func newParam(c *counter) *param { return &param{pc: c} }

func (p *param) inc() {
	c := p.pc
	p.mu.Lock()
	c.n++ // @param
	p.mu.Unlock()
}

// given: the holder's constructor stores a counter its caller allocated
// for it, through two calls (makeGiven -> wrapGiven -> newGiven).
type given struct {
	mu sync.Mutex
	gc *counter
}

func newGiven(c *counter) *given  { return &given{gc: c} }
func wrapGiven(c *counter) *given { return newGiven(c) }
func makeGiven() *given           { return wrapGiven(&counter{}) }

func (g *given) inc() {
	c := g.gc
	g.mu.Lock()
	c.n++ // @given
	g.mu.Unlock()
}

// givenLoop: the caller passes one counter it allocated once to a
// constructor it calls in a loop.
type givenLoop struct {
	mu sync.Mutex
	lc *counter
}

func newGivenLoop(c *counter) *givenLoop { return &givenLoop{lc: c} }

func makeGivenLoops() []*givenLoop {
	c := &counter{}
	var out []*givenLoop
	for range 2 {
		out = append(out, newGivenLoop(c))
	}
	return out
}

func (g *givenLoop) inc() {
	c := g.lc
	g.mu.Lock()
	c.n++ // @givenloop
	g.mu.Unlock()
}

func main() {
	var wg sync.WaitGroup
	run := func(fs ...func()) {
		for _, f := range fs {
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		}
	}

	a, b := newOwner(4), newOwner(8)
	run(a.inc, a.inc, b.inc, a.incOther, a.incUnlocked, func() { b.incVia(a) }, func() { a.put(1) }, func() { a.put(2) })
	run(func() { lockAll([]*owner{newOwner(1), newOwner(1)}) })

	one := &counter{}
	s1, s2 := &shared{sc: one}, &shared{sc: one}
	r1, r2 := newReassigned(), newReassigned()
	r2.rc = r1.rc
	var ls []*looped
	c := &counter{}
	for range 2 {
		ls = append(ls, &looped{lc: c})
	}
	p1, p2 := &copied{cc: &counter{}}, new(copied)
	*p2 = *p1
	q := &counter{}
	q1, q2 := newParam(q), newParam(q)
	run(s1.inc, s2.inc, r1.inc, r2.inc, ls[0].inc, ls[1].inc, p1.inc, p2.inc, q1.inc, q2.inc)
	g1, g2 := makeGiven(), makeGiven()
	gl := makeGivenLoops()
	run(g1.inc, g2.inc, gl[0].inc, gl[1].inc)
	wg.Wait()
}
