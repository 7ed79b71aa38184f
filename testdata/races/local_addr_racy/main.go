// Escaping local: &n is passed to a goroutine, which writes n while main reads it.
package main

import "fmt"

func set(p *int, done chan<- bool) {
	*p = 1 // want "race"
	done <- true
}

func main() {
	n := 0
	done := make(chan bool)
	go set(&n, done)
	fmt.Println(n) // want "race"
	<-done
}
