// Two races, each suppressed by a //chordgo:ignore comment: progress by one
// on the line above the goroutine's write, polls by one at the end of
// main's increment. The third comment is above a line that races with
// nothing (the receive orders the goroutine's increment before it), so
// chordgo check warns that it matches no race. go run -race reports both
// races.
package main

var progress, polls int

func main() {
	done := make(chan bool)
	go func() {
		//chordgo:ignore progress is only printed, a stale value is fine
		progress = 1
		polls++
		done <- true
	}()
	println(progress)
	polls++ //chordgo:ignore polls is a rough count, by design
	<-done
	//chordgo:ignore nothing races here
	println(polls)
}
