// The goroutine signals before it updates total: main's read and the next
// round's goroutine may run while it writes.
package main

import "fmt"

func main() {
	total := 0
	for i := 0; i < 3; i++ {
		done := make(chan struct{})
		go func() {
			close(done)
			total += i // want "race"
		}()
		<-done
		fmt.Println(total) // want "race"
	}
}
