// context cancellation: the worker writes reason and then calls cancel; main's
// <-ctx.Done() observes the close that cancel performs, then reads reason.
package main

import (
	"context"
	"fmt"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	reason := ""
	go func() {
		reason = "finished"
		cancel()
	}()
	<-ctx.Done()
	fmt.Println(reason)
}
