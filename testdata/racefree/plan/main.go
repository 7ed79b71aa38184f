// Command plan has one function for each reason chordgo racefree marks a
// function //go:norace or not (racefree.TestPlan). go run -race reports
// the race on counter between bump's line and itself each time, and with
// inClosure's closure's line some of the time.
package main

import (
	"fmt"
	"strings"
	"sync"
)

var counter int

// fill makes a slice only its caller's goroutine sees: marked.
func fill(n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	return xs
}

// bump races with itself in two goroutines.
func bump() {
	counter++
}

// twice has no access in a race, but the compiler may inline bump into
// it, whose accesses would lose their checks.
func twice() {
	bump()
	bump()
}

// repeat calls the standard library, whose accesses chordgo does not
// report races between.
func repeat(s string) string {
	return strings.Repeat(s, 2) + s
}

// inClosure has a racy access in a closure it declares.
func inClosure(wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		counter--
	}()
}

func first[T any](xs []T) T { return xs[0] }

// stackOnly has no load or store the race detector checks.
func stackOnly(n int) int { return n * 2 }

// unused is reached from no root.
func unused(p *int) { *p = 1 }

func main() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			xs := fill(10)
			twice()
			fmt.Println(first(xs), repeat("a"), stackOnly(1))
		}()
	}
	inClosure(&wg)
	wg.Wait()
}
