// Range over a map vs delete, ordered by a channel: the delete happens before the
// close, the close before main's receive, and the receive before the range.
package main

import "fmt"

func main() {
	m := map[string]int{"a": 1, "b": 2}
	done := make(chan struct{})
	go func() {
		delete(m, "a")
		close(done)
	}()
	<-done
	sum := 0
	for _, v := range m {
		sum += v
	}
	fmt.Println(sum)
}
