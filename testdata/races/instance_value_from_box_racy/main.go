// Two workers copy a struct out of one interface into a variable of their
// own and bump the counter its pointer field points to: the counter main
// put in the box. Copying a struct value reads the pointers in it, so the
// workers' copies hold main's object.
package main

import (
	"fmt"
	"sync"
)

type result struct{ n int }

type job struct{ out *result }

func main() {
	shared := &result{}
	var box any = job{out: shared}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := box.(job)
			p := &j
			p.out.n++ // want "race"
		}()
	}
	wg.Wait()
	fmt.Println(shared.n)
}
