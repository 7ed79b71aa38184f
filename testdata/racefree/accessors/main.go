// Command accessors races on hits, in a function whose other loads and
// stores are race-free: they go through chordgo racefree's accessors
// (racefree.TestAccessors). go run -race reports the race at line 39
// (with itself) each time.
package main

import "fmt"

type node struct {
	a, b int
	xs   []int
	next *node
	name string
}

var hits int

func work(results chan<- int) {
	n := &node{xs: make([]int, 4)}
	n.next = &node{}
	for i := 0; i < len(n.xs); i++ {
		n.xs[i] = i
		n.a = n.a + n.xs[i]
	}
	n.next.b = n.a
	if n.next.b > 0 {
		n.b = n.next.b * 2
	}
	n.a += 1
	n.xs[1]++
	n.b -= n.xs[1]
	n.name += "ab"
	n.a /= 1
	n.b <<= 1
	n.xs[2] += len(fmt.Sprint(n.a))
	var p *int = &n.next.a
	*p = n.b
	results <- n.b + *p + len(n.name)
	hits++
}

func main() {
	results := make(chan int)
	for range 2 {
		go work(results)
	}
	// The compiler captures scale by value (it is never assigned again):
	// its loads have no check, and get no accessor. total is assigned in
	// the closure, shared with it, and its loads and stores get them.
	scale := 2
	total := 0
	sum := func(a, b int) { total = (a + b) * scale }
	sum(<-results, <-results)
	fmt.Println(total / scale)
}
