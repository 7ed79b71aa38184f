// One object sent by two goroutines: main makes it and hands it to both senders,
// which fill it and send it on. Neither sender made it, so their writes race.
package main

import "fmt"

type result struct{ name string }

func main() {
	r := &result{}
	out := make(chan *result)
	for i := range 2 {
		go func() {
			r.name = fmt.Sprint("sender ", i) // want "race"
			out <- r
		}()
	}
	for range 2 {
		<-out
	}
	fmt.Println("sent twice")
}
