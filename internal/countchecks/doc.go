// Command countchecks writes a go build -overlay under which a program
// built with -race counts the race detector's checks it executes and
// prints the counts when it exits (racefree/BENCHMARKS.md: part 4 of
// issue 14).
//
//	go run ./internal/countchecks -o counting.json [-with racefree.json]
//	go test -race -overlay counting.json ...   # or go build -race
//
// The copy of GOROOT's runtime/race_amd64.s increments a counter, with
// LOCK INCQ, at the entry of each check: the compiler's (raceread,
// racewrite and their range forms: one per load or store it instrumented)
// and the runtime's (racereadpc and the like: maps, channels, append,
// copy, conversions). Copies of runtime/proc.go print the counters on
// standard error when main returns or os.Exit is called:
//
//	chordgo-race-checks: compiler N runtime M
//
// A program that dies of a panic prints nothing. The counts are exact
// (every entry counts, including those the entry point then skips:
// addresses outside the heap and globals); the LOCK prefix serializes, so
// time a program built without this overlay. -with merges another
// overlay (chordgo racefree's) into the one written. Callgrind, the other
// exact counter, aborts on the signals Go programs take (asynchronous
// preemption, nil checks that panic), which the race suite has. amd64
// only.
package main
