// A global lock: one package-level mutex guards a heap object created in main;
// every goroutine holds it while updating reg.count. No race.
package main

import (
	"fmt"
	"sync"
)

var regMu sync.Mutex

type registry struct{ count int }

func register(reg *registry, wg *sync.WaitGroup) {
	defer wg.Done()
	regMu.Lock()
	reg.count++
	regMu.Unlock()
}

func main() {
	reg := &registry{}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go register(reg, &wg)
	}
	wg.Wait()
	fmt.Println(reg.count)
}
