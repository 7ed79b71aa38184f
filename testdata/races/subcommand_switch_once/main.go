// check and vet, two subcommands chosen by a switch in a function that
// runs once, both call analyze: one execution runs one of them, so analyze
// runs once and its goroutine is one goroutine, which cannot race with
// itself.
package main

import (
	"os"
	"time"
)

var hits int

func analyze() {
	go func() {
		hits++
	}()
	time.Sleep(10 * time.Millisecond)
}

func check() { analyze() }

func vet() { analyze() }

func run(args []string) int {
	if len(args) == 0 {
		args = []string{"check"}
	}
	switch args[0] {
	case "check":
		check()
	case "vet":
		vet()
	default:
		return 2
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:]))
}
