// As subcommand_switch_once, with the subcommand chosen from a table by one
// call that runs once and then returns: it calls check or vet, not both.
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

type command struct {
	name string
	run  func()
}

func commands() []command {
	return []command{{"check", func() { analyze() }}, {"vet", func() { analyze() }}}
}

func run(name string) int {
	for _, c := range commands() {
		if c.name == name {
			c.run()
			return 0
		}
	}
	return 2
}

func main() {
	name := "check"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	os.Exit(run(name))
}
