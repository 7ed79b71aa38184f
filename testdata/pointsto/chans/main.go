// Channel make (with and without capacity), send, receive, select, close, range.
package main

var sink *int

func main() {
	c := make(chan *int, 3) // @make3
	d := make(chan *int)    // @make0
	x := new(int)           // @newx
	c <- x                  // @send
	y := <-c                // @recv
	go func() { d <- y }()
	select { // @select
	case z := <-d:
		sink = z
	case c <- y:
	}
	close(c) // @close
	for w := range c {
		sink = w
	}
}
