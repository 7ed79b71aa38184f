package main

import "github.com/chordgo/chordgo/testdata/pointsto/broken"

func main() { println(broken.F()) }
