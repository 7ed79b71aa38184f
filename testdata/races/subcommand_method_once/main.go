// check and vet, two subcommands chosen by a switch in a function that
// runs once, both call analyze on a tool from one constructor: analyze
// runs in one context for both, but once per execution, so its goroutine
// is one goroutine, which cannot race with itself.
package main

import (
	"os"
	"time"
)

var hits int

type tool struct{ name string }

func newTool(name string) *tool { return &tool{name: name} }

func (t *tool) analyze() {
	go func() {
		hits++
	}()
	time.Sleep(10 * time.Millisecond)
}

func check() { newTool("check").analyze() }

func vet() { newTool("vet").analyze() }

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
