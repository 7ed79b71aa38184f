// serve's goroutine writes the counts, and so does dump, in main, inside a
// sync.Once; serve calls a Once too, after its go statement. One run makes
// one subcommand, so the two writes are never in one execution: each
// Once's doSlow calls its own f.
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

var (
	counts              = map[string]int{}
	serveOnce, dumpOnce sync.Once
)

func serve() {
	go func() {
		counts["served"]++
	}()
	serveOnce.Do(func() { fmt.Println("serving") })
	time.Sleep(10 * time.Millisecond)
}

func dump() {
	dumpOnce.Do(func() { counts["dumped"]++ })
}

func run(args []string) int {
	if len(args) == 0 {
		args = []string{"serve"}
	}
	switch args[0] {
	case "serve":
		serve()
	case "dump":
		dump()
	default:
		return 2
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:]))
}
