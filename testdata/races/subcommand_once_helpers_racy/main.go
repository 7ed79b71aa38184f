// As subcommand_once_helpers, but "both" runs serve and then dump: the
// goroutine serve starts may write the counts when dump does.
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
		counts["served"]++ // want "race"
	}()
	serveOnce.Do(func() { fmt.Println("serving") })
}

func dump() {
	time.Sleep(10 * time.Millisecond)
	dumpOnce.Do(func() { counts["dumped"]++ }) // want "race"
}

func run(args []string) int {
	if len(args) == 0 {
		args = []string{"both"}
	}
	if args[0] == "serve" || args[0] == "both" {
		serve()
	}
	if args[0] == "dump" || args[0] == "both" {
		dump()
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:]))
}
