// As subcommand_switch_once, but with an if for each subcommand, one after
// the other: "both" runs check and vet, so analyze starts two goroutines.
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

func check() { analyze() }

func vet() { analyze() }

func run(args []string) int {
	if len(args) == 0 {
		args = []string{"both"}
	}
	if args[0] == "check" || args[0] == "both" {
		check()
	}
	if args[0] == "vet" || args[0] == "both" {
		vet()
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:]))
}
