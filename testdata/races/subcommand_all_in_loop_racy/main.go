// As subcommand_table_once, but "all" runs every subcommand: the call that
// chooses is in a loop that goes on after it, so it calls check and vet.
package main

import (
	"os"
	"time"
)

var hits int

func analyze() {
	go func() {
		hits++ // want "race"
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
	code := 2
	for _, c := range commands() {
		if c.name == name || name == "all" {
			c.run()
			code = 0
		}
	}
	return code
}

func main() {
	name := "all"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	os.Exit(run(name))
}
