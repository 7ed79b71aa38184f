// Command spanmark has a function, bump, whose loads and stores chordgo
// proves race-free; racefree.TestSpanMark takes one of them to be racy,
// as a false alarm would, to check when span redundancy still lets bump
// be marked //go:norace.
package main

type counter struct{ n int }

func bump(c *counter) int {
	c.n++
	return c.n
}

func main() {
	c := &counter{}
	if bump(c) != 1 {
		panic("bump")
	}
}
