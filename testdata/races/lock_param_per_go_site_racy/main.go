// As lock_param_per_go_site, but the second worker is given m1 for y, which
// main writes under m2: that worker and main hold different locks.
package main

import (
	"fmt"
	"sync"
)

var m1, m2 sync.Mutex

func worker(m *sync.Mutex, p *int, wg *sync.WaitGroup) {
	defer wg.Done()
	m.Lock()
	*p = *p + 1 // want "race"
	m.Unlock()
}

func main() {
	var wg sync.WaitGroup
	x, y := new(int), new(int)
	wg.Add(2)
	go worker(&m1, x, &wg)
	go worker(&m1, y, &wg)
	m1.Lock()
	*x = 10
	m1.Unlock()
	m2.Lock()
	*y = 10 // want "race"
	m2.Unlock()
	wg.Wait()
	fmt.Println(*x, *y)
}
