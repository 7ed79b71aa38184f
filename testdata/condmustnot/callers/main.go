// Command callers calls two functions with a global mutex held: work from
// two callers that both hold it, work2 from one that does and one that
// does not.
package main

import "sync"

var (
	mu      sync.Mutex
	guarded int
	exposed int
)

func work()  { guarded++ } // @guarded
func work2() { exposed++ } // @exposed

func a() {
	mu.Lock()
	work()
	work2()
	mu.Unlock()
}

func b() {
	mu.Lock()
	work()
	mu.Unlock()
	work2()
}

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a() }()
	go func() { defer wg.Done(); b() }()
	wg.Wait()
}
