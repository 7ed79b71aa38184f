// Command difftest tests chordgo's soundness against Go's race detector
// on random programs (issue 10).
//
// It takes seeds and gives, for each seed's program, the races the race
// detector reported in some of its runs and the races chordgo reports, both
// as pairs of lines of the program; a race the detector saw that chordgo
// does not report (same two lines, either order) is a miss: a soundness
// failure, printed with its seed and text and shrunk to a small program
// for the developer. chordgo's races the detector never saw are counted as
// an indication of false alarms only: the detector sees races that
// happen in the runs it watched.
//
//   - Generate makes a small concurrent main package from a seed (math/rand/v2,
//     PCG): goroutines in loops, recursion and chains, closures, methods,
//     interfaces, generic types and functions, maps, slices, arrays, struct
//     fields, globals, captured locals; Mutex, RWMutex, channels (buffered,
//     unbuffered, closed, handing off objects), select, WaitGroup (Add/Done
//     and Go), Once, atomics, Cond and context cancellation. Programs end
//     without deadlock by construction (see Generate); racy and race-free
//     ones come from the same rules.
//   - A batch is one temporary module with one main package per program:
//     one `go build -race` builds them all, each binary runs three times
//     with GORACE="halt_on_error=0 exitcode=66", and the reports are read
//     from the first frame in the program's file of each access's stack.
//   - chordgo runs through its Go API (pointsto.Load, Extract,
//     NewAnalyzer, demand.Run with chordgo check's defaults) on the whole
//     batch in one load: each main package is its own program, and roots of
//     different programs are never paired. The command runs it in a child
//     process with a time limit, halving a batch that passes it down to the
//     program that does; one program that takes more than 10 s alone is a
//     bug to report.
//   - shrink deletes top-level declarations and runs of statements while
//     the miss persists and the program compiles and runs.
//   - explain puts a miss down to one of knownCauses, the causes chordgo
//     does not fix yet, each shown by testdata/races programs; the command
//     shrinks only the misses no known cause explains.
//
// The default tests run the programs of seeds 1 to 50; a miss no known
// cause explains fails them. The long run is the command:
//
//	go run ./internal/difftest -n 5000 -seed 1
//
// with results in BENCHMARKS.md.
package main
