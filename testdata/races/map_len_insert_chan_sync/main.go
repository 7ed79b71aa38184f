// len of a map vs insertion, ordered: main calls len only after receiving from the
// goroutine, which sends after inserting. No race.
package main

import "fmt"

func main() {
	m := make(map[int]bool)
	done := make(chan bool)
	go func() {
		m[1] = true
		done <- true
	}()
	<-done
	fmt.Println(len(m))
}
