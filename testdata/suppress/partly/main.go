// Two races: the comment above the goroutine's write of a suppresses the
// race on a only; the race on b is reported. go run -race reports both.
package main

var a, b int

func main() {
	done := make(chan bool)
	go func() {
		//chordgo:ignore a is a best-effort hint
		a = 1
		b = 1
		done <- true
	}()
	a = 2
	b = 2
	<-done
}
