// Main and a worker each make a counter set of their own, but main points
// the worker's set at its own totals, which it got through the channel the
// worker announced its set on: both then add to one map. A goroutine that
// holds another's object can hand it its own.
package main

import "fmt"

type totals struct{ byName map[string]int }

type counters struct{ sums *totals }

func newCounters() *counters {
	return &counters{sums: &totals{byName: map[string]int{}}}
}

func (c *counters) bump(name string) {
	c.sums.byName[name]++ // want "race"
}

func main() {
	announce := make(chan *counters)
	resume := make(chan struct{})
	done := make(chan struct{})
	go func() {
		c := newCounters()
		announce <- c
		<-resume
		c.bump("worker")
		close(done)
	}()
	mine := newCounters()
	theirs := <-announce
	theirs.sums = mine.sums
	close(resume)
	mine.bump("main")
	<-done
	fmt.Println(len(mine.sums.byName))
}
