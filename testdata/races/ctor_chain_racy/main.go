// An object made three calls down, each function called from one site: a
// goroutine and main both write its field. Each raise of the demand loop
// lengthens the object's one context (a call site more) and splits
// nothing, so the race stays; the loop stops without the run that would
// only rename contexts.
package main

import "fmt"

type T struct{ x int }

func mk3() *T { return &T{} }
func mk2() *T { return mk3() }
func mk1() *T { return mk2() }

func main() {
	t := mk1()
	done := make(chan bool)
	go func() {
		t.x = 1 // want "race"
		done <- true
	}()
	t.x = 2 // want "race"
	<-done
	fmt.Println(t.x)
}
