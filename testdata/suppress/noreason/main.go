// A //chordgo:ignore comment without a reason is an error: chordgo check
// stops with exit status 2 and names its line. go run -race reports the
// race on a.
package main

var a int

func main() {
	done := make(chan bool)
	go func() {
		//chordgo:ignore
		a = 1
		done <- true
	}()
	a = 2
	<-done
}
