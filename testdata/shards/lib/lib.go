// Package lib has a race of its own: two test binaries (packages a and b)
// that call Bump each have it, so chordgo check -shard finds it in two
// shards when a and b fall in different ones.
package lib

// Bump's goroutine and its caller both write n.
func Bump() int {
	n := 0
	done := make(chan bool)
	go func() {
		n++
		done <- true
	}()
	n++
	<-done
	return n
}
