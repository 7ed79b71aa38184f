// One worker function started twice with different arguments: it locks its
// first argument around writes through its second, and main reads x under
// m1 and y under m2. The worker's parameter m points to m1 and m2, but the
// goroutine of each go statement holds only the mutex it was given. No race.
package main

import (
	"fmt"
	"sync"
)

var m1, m2 sync.Mutex

func worker(m *sync.Mutex, p *int, wg *sync.WaitGroup) {
	defer wg.Done()
	m.Lock()
	*p = *p + 1
	m.Unlock()
}

func main() {
	var wg sync.WaitGroup
	x, y := new(int), new(int)
	wg.Add(2)
	go worker(&m1, x, &wg)
	go worker(&m2, y, &wg)
	m1.Lock()
	*x = 10
	m1.Unlock()
	m2.Lock()
	*y = 10
	m2.Unlock()
	wg.Wait()
	fmt.Println(*x, *y)
}
