// A package that does not type-check: chordgo check names it with its
// first error, analyzes the rest, and exits with status 2.
package main

func main() { var y int = "s" }
