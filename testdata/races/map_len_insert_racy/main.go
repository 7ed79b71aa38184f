// len of a map vs insertion: len reads the map's count, the insert writes it, and
// the final receive comes after main's len, so it orders nothing.
package main

import "fmt"

func main() {
	m := make(map[int]bool)
	done := make(chan bool)
	go func() {
		m[1] = true // want "race"
		done <- true
	}()
	n := len(m) // want "race"
	<-done
	fmt.Println(n)
}
