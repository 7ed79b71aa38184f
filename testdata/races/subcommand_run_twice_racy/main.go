// As subcommand_method_once, but main runs two subcommands: the function
// that chooses runs twice, so analyze starts two goroutines.
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
		hits++ // want "race"
	}()
	time.Sleep(10 * time.Millisecond)
}

func check() { newTool("check").analyze() }

func vet() { newTool("vet").analyze() }

func run(name string) int {
	switch name {
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
	code := run("check")
	code += run("vet")
	os.Exit(code)
}
