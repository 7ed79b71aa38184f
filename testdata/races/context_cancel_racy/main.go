// context cancellation orders what happens before cancel, not what comes after:
// main writes reason after cancel(), while the worker reads it after <-ctx.Done().
package main

import (
	"context"
	"fmt"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	reason := ""
	done := make(chan int)
	go func() {
		<-ctx.Done()
		done <- len(reason) // want "race"
	}()
	cancel()
	reason = "stopped" // want "race"
	fmt.Println(<-done)
}
