// A write before the go statement happens before everything the new goroutine
// does, so the goroutine may read c.name freely. No race.
package main

import "fmt"

type cfg struct{ name string }

func main() {
	c := &cfg{}
	c.name = "primary"
	done := make(chan int)
	go func() {
		done <- len(c.name)
	}()
	fmt.Println(<-done, c.name)
}
