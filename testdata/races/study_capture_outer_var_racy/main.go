// Chabbi and Ramanathan's captured-by-reference shape, still racy since Go 1.22:
// the variable the goroutines read is declared outside the loop and assigned in
// it, so every closure shares it and the next iteration's write races with the
// goroutine started by the previous one.
package main

import (
	"fmt"
	"sync"
)

func main() {
	jobs := []string{"a", "b", "c"}
	out := make(chan string, len(jobs))
	var job string
	var wg sync.WaitGroup
	for _, j := range jobs {
		job = j // want "race"
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- job + "!" // want "race"
		}()
	}
	wg.Wait()
	close(out)
	for s := range out {
		fmt.Println(s)
	}
}
