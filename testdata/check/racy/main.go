// Beside testdata/check/broken: this program still gets analyzed, and its
// race reported.
package main

func main() {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	x = 2
	<-done
	println(x)
}
