// Each index has a sync.Once of its own, and Build is p.once.Do(p.build):
// build's writes to the index happen before every Do on that index's Once
// returns, so the readers, each after its own Build (or Do in Size), read
// the index safely. The Once stands for one per index made in the loop. No
// race.
package main

import (
	"fmt"
	"sync"
)

type index struct {
	once  sync.Once
	words []string
	size  int
	built int
}

func (p *index) build() {
	p.words = []string{"a", "b", "c"}
	p.size = len(p.words)
	p.built++
}

func (p *index) Build() { p.once.Do(p.build) }

func (p *index) Size() int {
	p.once.Do(p.build)
	return p.size
}

// readers starts two goroutines that read p, one after Build, one in Size.
func readers(p *index, wg *sync.WaitGroup, total chan<- int) {
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.Build()
		total <- len(p.words) + p.built
	}()
	go func() {
		defer wg.Done()
		total <- p.Size()
	}()
}

func main() {
	var wg sync.WaitGroup
	total := make(chan int, 8)
	for range 2 {
		p := &index{}
		readers(p, &wg, total)
		readers(p, &wg, total)
	}
	wg.Wait()
	close(total)
	sum := 0
	for n := range total {
		sum += n
	}
	fmt.Println(sum)
}
