// The same shape, but y comes from the command line: the read of x behind
// && may run while the goroutine writes x.
package main

import (
	"fmt"
	"os"
)

func main() {
	done := make(chan bool)
	x, y := 0, len(os.Args)
	go func() {
		x = 1 // want "race"
		done <- true
	}()
	if y == 1 && x == 1 { // want "race"
		fmt.Println("read x")
	}
	<-done
}
