// Two workers and main each build a table of their own with the same
// constructor, at the same time; once the workers are done, main hands its
// table to a printer goroutine, so the tables' site escapes. No builder ever
// holds a table it did not allocate, so their writes never meet: no race.
package main

import (
	"fmt"
	"sync"
)

type index struct{ rows []int }

type table struct {
	idx *index
	n   int
}

func newTable() *table { return &table{idx: &index{}} }

func (t *table) add(v int) {
	t.idx.rows = append(t.idx.rows, v)
	t.n++
}

func build(n int) *table {
	t := newTable()
	for i := range n {
		t.add(i)
	}
	return t
}

func main() {
	var wg sync.WaitGroup
	sums := make(chan int, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		t := build(4)
		sums <- t.n + len(t.idx.rows)
	}()
	go func() {
		defer wg.Done()
		t := build(5)
		sums <- t.n + len(t.idx.rows)
	}()
	mine := build(3)
	wg.Wait()
	printed := make(chan struct{})
	go func() {
		fmt.Println(mine.n, len(mine.idx.rows))
		close(printed)
	}()
	<-printed
	fmt.Println(<-sums + <-sums)
}
